import LumaAnalysis
import PhotoValidation

/// A photo the service validated: its answer, and what remembering it for its project needs.
struct CheckedPhoto: Sendable {
    /// The answer so far.
    var output: ValidatePhotoOutput
    /// Its fingerprint, parsed once in the worker; nil when it has none (not decoded).
    let fingerprint: PhotoFingerprint?
    /// The duplicate memory's generation the photo was compared up to.
    let generation: UInt64
    /// The request's deadline, which later comparisons keep.
    let deadline: ContinuousClock.Instant
}
