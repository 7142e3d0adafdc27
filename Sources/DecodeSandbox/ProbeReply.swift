/// What a sandboxed worker could do, for tests: 0 where a call succeeded, else its errno.
package struct ProbeReply: Codable, Sendable, Equatable {
    /// The errno of `open("/etc/passwd")`, 0 when it opened.
    package var openErrno: Int32
    /// The errno of `socket(AF_INET, SOCK_STREAM)`, 0 when it was made.
    package var socketErrno: Int32
    /// The names of the environment variables the worker sees (libraries may set their own
    /// after start-up; none comes from the daemon).
    package var environmentNames: [String]
    /// Whether the seccomp filter is in force.
    package var seccomp: Bool
    /// The errno of `stat("/etc/passwd")`, 0 when it worked.
    package var statErrno: Int32
    /// The errno of `access("/etc/passwd", F_OK)`, 0 when it worked.
    package var accessErrno: Int32
    /// The real user id.
    package var uid: UInt32
    /// The effective user id.
    package var effectiveUID: UInt32
    /// The real group id.
    package var gid: UInt32
    /// The effective capability set, as a bit mask.
    package var effectiveCapabilities: UInt64
    /// The permitted capability set, as a bit mask.
    package var permittedCapabilities: UInt64
    /// RLIMIT_CPU's soft limit in seconds (-1 unlimited).
    package var cpuSoftLimit: Int64
    /// RLIMIT_CPU's hard limit in seconds (-1 unlimited).
    package var cpuHardLimit: Int64
    /// RLIMIT_AS's hard limit in bytes (-1 unlimited).
    package var addressSpaceHardLimit: Int64
    /// The errno of an attempt to lift RLIMIT_CPU, 0 when it was lifted.
    package var raiseCPULimitErrno: Int32

    /// A report of these findings (made by the worker host).
    package init(
        openErrno: Int32, socketErrno: Int32, environmentNames: [String], seccomp: Bool, statErrno: Int32, accessErrno: Int32, uid: UInt32, effectiveUID: UInt32, gid: UInt32, effectiveCapabilities: UInt64, permittedCapabilities: UInt64, cpuSoftLimit: Int64, cpuHardLimit: Int64, addressSpaceHardLimit: Int64, raiseCPULimitErrno: Int32
    ) {
        self.openErrno = openErrno
        self.socketErrno = socketErrno
        self.environmentNames = environmentNames
        self.seccomp = seccomp
        self.statErrno = statErrno
        self.accessErrno = accessErrno
        self.uid = uid
        self.effectiveUID = effectiveUID
        self.gid = gid
        self.effectiveCapabilities = effectiveCapabilities
        self.permittedCapabilities = permittedCapabilities
        self.cpuSoftLimit = cpuSoftLimit
        self.cpuHardLimit = cpuHardLimit
        self.addressSpaceHardLimit = addressSpaceHardLimit
        self.raiseCPULimitErrno = raiseCPULimitErrno
    }
}
