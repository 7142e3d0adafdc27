/// What a worker reports once it is set up and sandboxed.
package struct WorkerReady: Codable, Sendable {
    /// Whether the seccomp allow-list is in force.
    package var seccomp: Bool
    /// The sandbox step that failed and its errno, when one did (such as seccomp refused).
    package var sandboxError: String?
    /// The worker's address space after start-up and warm-up, in KiB.
    package var baselineKiB: Int
    /// The `RLIMIT_AS` it set, in bytes.
    package var addressSpaceLimit: Int
    /// The user it runs as once sandboxed.
    package var uid: UInt32
    /// The group it runs as once sandboxed.
    package var gid: UInt32

    /// A report of these facts.
    package init(seccomp: Bool, sandboxError: String?, baselineKiB: Int, addressSpaceLimit: Int, uid: UInt32, gid: UInt32) {
        self.seccomp = seccomp
        self.sandboxError = sandboxError
        self.baselineKiB = baselineKiB
        self.addressSpaceLimit = addressSpaceLimit
        self.uid = uid
        self.gid = gid
    }
}
