/// Why decode workers cannot be used at all.
package enum SandboxError: Error, Sendable, CustomStringConvertible {
    /// A worker could not be spawned or did not report ready.
    case startFailed(String)

    /// The stable code and what went wrong.
    package var description: String {
        switch self {
        case .startFailed(let message): "decode_worker_start_failed: \(message)"
        }
    }
}
