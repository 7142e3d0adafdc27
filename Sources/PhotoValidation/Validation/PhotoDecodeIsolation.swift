/// Runs a validator's decodes somewhere other than the calling thread's process: a sandboxed
/// worker process (`DecodeSandbox`) whose crash, runaway allocation or stuck loop costs only the
/// photo it was decoding.
///
/// An isolation answers exactly what the in-process checks (`InProcessChecks`) would, or
/// `invalid_image` with `decoder_crashed`, `decode_timeout` or `memory_limit_exceeded`; or, for a
/// photo no worker ran, `decoder_unavailable`, which is the service's failure, not a verdict.
public protocol PhotoDecodeIsolation: PhotoDecoding {
    /// Workers that ended while holding a photo, by reason code, every reason listed.
    var restartCounts: [String: Int] { get }

    /// Workers started in the background to replace stopped ones, by outcome (`started`: got
    /// ready, `failed`: could not be started), both listed.
    var replacementCounts: [String: Int] { get }

    /// Worker starts that failed (at birth, for a photo or in the background).
    var startFailures: Int { get }

    /// Why no worker can be had now (photos are then answered `decoder_unavailable`, and the
    /// daemon is not ready), or nil while workers can be had.
    var unavailableReason: String? { get }

    /// A warning to log once when the isolation runs with less than its full sandbox, else nil.
    var sandboxWarning: String? { get }

    /// Stops what the isolation started (idle worker processes).
    func shutdown()
}
