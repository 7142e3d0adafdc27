import Admission
import PhotoFormat

/// Runs a validator's decodes somewhere other than the calling thread's process: a sandboxed
/// worker process (`DecodeSandbox`) whose crash, runaway allocation or stuck loop costs only the
/// photo it was decoding.
///
/// An isolation answers exactly what the in-process `PhotoValidator.validate(_:as:previews:)`
/// would, or `invalid_image` with `decoder_crashed`, `decode_timeout` or `memory_limit_exceeded`.
public protocol PhotoDecodeIsolation: Sendable {
    /// Validates the photo in `bytes` as `photoType` and, when it passed (or decoded at all, with
    /// `evenIfFailed`) and `previews` is given, makes its preview with those bounds.
    func validate(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewBounds?,
        evenIfFailed: Bool
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?)

    /// Validates the photo in `bytes` as `photoType` and returns what was measured too (nil when
    /// the answer is not the photo's own: a crash, a time limit): `PhotoValidator.measure(_:as:)`.
    func measure(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?)

    /// Workers that ended while holding a photo, by reason code, every reason listed.
    var restartCounts: [String: Int] { get }

    /// A warning to log once when the isolation runs with less than its full sandbox, else nil.
    var sandboxWarning: String? { get }

    /// Stops what the isolation started (idle worker processes).
    func shutdown()

    /// The one decode memory budget the isolation reserves each photo's need from before a worker
    /// takes it, shared by every worker; nil when each decode reserves its own.
    var memoryBudget: WeightedSemaphore? { get }
}

extension PhotoDecodeIsolation {
    /// The answer without measurements: an isolation that cannot return them is never cached.
    public func measure(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?) {
        (validate(bytes, as: photoType, previews: nil, evenIfFailed: false).output, nil)
    }

    /// No shared budget.
    public var memoryBudget: WeightedSemaphore? { nil }
}
