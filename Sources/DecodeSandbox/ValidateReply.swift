import PhotoFormat
import PhotoValidation

/// A worker's answer for one photo; the preview JPEG, when there is one, follows the header.
package struct ValidateReply: Codable, Sendable {
    /// A `DecodeFailure` on the wire.
    package struct Failure: Codable, Sendable {
        /// `DecodeFailure.Reason`'s raw value.
        package var reason: String
        /// `DecodeFailure.message`.
        package var message: String

        /// `failure` as sent.
        package init(_ failure: DecodeFailure) {
            reason = failure.reason.rawValue
            message = failure.message
        }

        /// The failure as received (an unknown reason is a library failure).
        package var decodeFailure: DecodeFailure {
            DecodeFailure(DecodeFailure.Reason(rawValue: reason) ?? .libraryFailure, message)
        }
    }

    /// The answer, exactly as the in-process validator gave it.
    package var output: ValidatePhotoOutput
    /// True when the worker has too little of its lifetime CPU left for another photo and exits
    /// after this reply.
    package var retiring: Bool? = nil
    /// The preview's size, when one was made.
    package var previewWidth: Int?
    /// The preview's height, when one was made.
    package var previewHeight: Int?
    /// Why the preview could not be made, when it was asked for and failed.
    package var previewFailure: Failure?
    /// What the worker measured, for the scores cache (nil when not deterministic).
    package var measurements: PhotoMeasurements?

    /// The reply carrying `output`, with nothing else set.
    package init(output: ValidatePhotoOutput) {
        self.output = output
    }
}
