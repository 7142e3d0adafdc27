import PhotoValidation
import VipsDecoder

extension PhotoValidator {
    /// Frees the decoder's per-thread buffers on a thread the decoder did not create (a worker
    /// pool's, as it ends); a no-op when nothing has started the decoder. Hand it to
    /// `ValidationWorkerPool(threadExit:)` when photos decode in this process.
    public static func releaseThreadResources() {
        VipsRuntime.releaseThreadResources()
    }
}
