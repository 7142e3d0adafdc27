import PhotoFormat
import PhotoValidation

/// A worker's answer for one photo; the preview JPEG, when there is one, follows the header.
struct ValidateReply: Codable, Sendable {
    /// A `DecodeFailure` on the wire.
    struct Failure: Codable, Sendable {
        /// `DecodeFailure.Reason`'s raw value.
        var reason: String
        /// `DecodeFailure.message`.
        var message: String

        /// `failure` as sent.
        init(_ failure: DecodeFailure) {
            reason = failure.reason.rawValue
            message = failure.message
        }

        /// The failure as received (an unknown reason is a library failure).
        var decodeFailure: DecodeFailure {
            DecodeFailure(DecodeFailure.Reason(rawValue: reason) ?? .libraryFailure, message)
        }
    }

    /// The answer, exactly as the in-process validator gave it.
    var output: ValidatePhotoOutput
    /// True when the worker has too little of its lifetime CPU left for another photo and exits
    /// after this reply.
    var retiring: Bool? = nil
    /// The preview's size, when one was made.
    var previewWidth: Int?
    /// The preview's height, when one was made.
    var previewHeight: Int?
    /// Why the preview could not be made, when it was asked for and failed.
    var previewFailure: Failure?
    /// What the worker measured, for the scores cache (nil when not deterministic).
    var measurements: PhotoMeasurements?
}
