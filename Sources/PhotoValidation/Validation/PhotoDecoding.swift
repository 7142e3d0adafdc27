import Admission
import PhotoFormat

/// Where and how a validator's photos are decoded and measured: in this process
/// (`InProcessChecks`, in `PhotoChecks`) or behind an isolation (`PhotoDecodeIsolation`).
/// `PhotoValidation` links no decoder: whoever builds a validator hands it one of these.
public protocol PhotoDecoding: Sendable {
    /// Validates the photo in `bytes` as `photoType` and, when it passed (or decoded at all, with
    /// `evenIfFailed`) and `previews` is given, makes its preview with those bounds; the answer
    /// carries `details.fingerprint` only with `fingerprint` (it is made only then). `deadline` is
    /// when the caller stops waiting (nil: only the decoding's own limits), `waitingPhotos` how many
    /// photos wait for a thread behind this one; an isolation ends its decode before the one and
    /// gives the photo fewer cores while any wait.
    func validate(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewBounds?,
        evenIfFailed: Bool,
        fingerprint: Bool,
        deadline: ContinuousClock.Instant?,
        waitingPhotos: Int
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?)

    /// Validates the photo in `bytes` as `photoType` and returns what was measured too (nil when
    /// the answer is not the photo's own: a crash, a time limit): `PhotoValidator.measure(_:as:)`.
    func measure(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, fingerprint: Bool, deadline: ContinuousClock.Instant?, waitingPhotos: Int
    ) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?)

    /// Frees the decoder's per-thread state on a thread the decoder did not create (a worker
    /// pool's, as it ends): hand it to `ValidationThreadPool(threadExit:)`.
    func releaseThreadResources()

    /// The one decode memory budget each photo's need is reserved from, shared by every thread
    /// (and worker); nil when each decode reserves its own.
    var memoryBudget: WeightedSemaphore? { get }
}

extension PhotoDecoding {
    /// The answer without measurements: a decoding that cannot return them is never cached.
    public func measure(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, fingerprint: Bool, deadline: ContinuousClock.Instant?, waitingPhotos: Int
    ) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?) {
        (validate(bytes, as: photoType, previews: nil, evenIfFailed: false, fingerprint: fingerprint, deadline: deadline, waitingPhotos: waitingPhotos).output, nil)
    }

    /// Nothing per thread: a decoding in other processes keeps none in this one.
    public func releaseThreadResources() {}

    /// No shared budget.
    public var memoryBudget: WeightedSemaphore? { nil }
}
