import Admission
import PhotoFormat

/// Runs the checks of the contract on one photo: decode, resolution, blur and exposure, in that
/// order, wherever `decoding` runs them (sandboxed worker processes, or this process).
///
/// `validate` is synchronous and blocks while the photo is checked: call it on a long-lived
/// worker thread (see `ValidationThreadPool`), never on a cooperative thread pool.
public struct PhotoValidator: Sendable {
    /// The thresholds and limits in force.
    public let settings: ValidationSettings
    /// Bounds the memory of decodes in flight across every thread using this validator, in bytes:
    /// a decode waits, on its worker thread, until its estimate fits beside the others.
    public let memoryBudget: WeightedSemaphore
    /// Where and how photos are decoded and measured.
    public let decoding: any PhotoDecoding

    /// Creates a validator that checks photos through `decoding`. This module links no decoder:
    /// `PhotoChecks` has the checks that run in this process (`PhotoValidator(settings:)`),
    /// `DecodeSandbox` the sandboxed worker processes.
    public init(settings: ValidationSettings, decoding: any PhotoDecoding) {
        self.settings = settings
        self.memoryBudget = decoding.memoryBudget ?? WeightedSemaphore(capacity: settings.decodeMemoryBudget)
        self.decoding = decoding
    }

    /// The isolation photos are decoded behind, or nil when they are decoded in this process.
    public var isolation: (any PhotoDecodeIsolation)? {
        decoding as? any PhotoDecodeIsolation
    }

    /// The answer for a photo whose decoder failed outside the photo's own checks (a worker that
    /// crashed, ran out of time or of memory): `invalid_image` with `failure`'s reason.
    public func failed(as photoType: PhotoType, _ failure: DecodeFailure, after elapsed: Duration) -> ValidatePhotoOutput {
        settings.answer(for: failure, as: photoType, after: elapsed)
    }

    /// The answer for a photo whose decode did not finish within `limit`: `invalid_image` with the
    /// reason `decode_timeout` (a file that takes that long is hostile or broken).
    public func timedOut(as photoType: PhotoType, after limit: Duration) -> ValidatePhotoOutput {
        settings.answer(
            for: DecodeFailure(.decodeTimeout, "decoding did not finish within \(limit.seconds) s; the file is treated as unreadable"),
            as: photoType, after: limit
        )
    }

    /// Validates the encoded photo in `bytes` as a photo of `photoType`, answered by `deadline`
    /// when one is given (see `PhotoDecoding.validate`).
    public func validate(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, deadline: ContinuousClock.Instant? = nil) -> ValidatePhotoOutput {
        measure(bytes, as: photoType, deadline: deadline).output
    }

    /// Validates the photo as `validate(_:as:)` does and returns what was measured too, for the
    /// scores cache to keep; nil measurements when the answer is not the photo's own (a library
    /// failure, a time limit, a crashed worker). The fingerprint is made only with `fingerprint`.
    public func measure(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, fingerprint: Bool = true, deadline: ContinuousClock.Instant? = nil, waitingPhotos: Int = 0
    ) -> (output: ValidatePhotoOutput, measurements: PhotoMeasurements?) {
        decoding.measure(bytes, as: photoType, fingerprint: fingerprint, deadline: deadline, waitingPhotos: waitingPhotos)
    }

    /// Frees the decoder's per-thread state on the calling thread, as it ends: what a worker pool
    /// running this validator's photos hands its `threadExit`. A no-op unless photos decode in this process.
    public func releaseThreadResources() {
        decoding.releaseThreadResources()
    }
}
