/// What a worker reports once it is set up and sandboxed.
struct WorkerReady: Codable, Sendable {
    /// Whether the seccomp allow-list is in force.
    var seccomp: Bool
    /// The sandbox step that failed and its errno, when one did (such as seccomp refused).
    var sandboxError: String?
    /// The worker's address space after start-up and warm-up, in KiB.
    var baselineKiB: Int
    /// The `RLIMIT_AS` it set, in bytes.
    var addressSpaceLimit: Int
    /// The user it runs as once sandboxed.
    var uid: UInt32
    /// The group it runs as once sandboxed.
    var gid: UInt32
}
