/// Runs a validator's decodes somewhere other than the calling thread's process: a sandboxed
/// worker process (`DecodeSandbox`) whose crash, runaway allocation or stuck loop costs only the
/// photo it was decoding.
///
/// An isolation answers exactly what the in-process checks (`InProcessChecks`) would, or
/// `invalid_image` with `decoder_crashed`, `decode_timeout` or `memory_limit_exceeded`.
public protocol PhotoDecodeIsolation: PhotoDecoding {
    /// Workers that ended while holding a photo, by reason code, every reason listed.
    var restartCounts: [String: Int] { get }

    /// Workers started in the background to replace stopped ones, by outcome (`started`: got
    /// ready, `failed`: could not be started), both listed.
    var replacementCounts: [String: Int] { get }

    /// A warning to log once when the isolation runs with less than its full sandbox, else nil.
    var sandboxWarning: String? { get }

    /// Stops what the isolation started (idle worker processes).
    func shutdown()
}
