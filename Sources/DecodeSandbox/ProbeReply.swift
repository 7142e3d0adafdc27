/// What a sandboxed worker could do, for tests: 0 where a call succeeded, else its errno.
public struct ProbeReply: Codable, Sendable, Equatable {
    /// The errno of `open("/etc/passwd")`, 0 when it opened.
    public var openErrno: Int32
    /// The errno of `socket(AF_INET, SOCK_STREAM)`, 0 when it was made.
    public var socketErrno: Int32
    /// The names of the environment variables the worker sees (libraries may set their own
    /// after start-up; none comes from the daemon).
    public var environmentNames: [String]
    /// Whether the seccomp filter is in force.
    public var seccomp: Bool
    /// The errno of `stat("/etc/passwd")`, 0 when it worked.
    public var statErrno: Int32
    /// The errno of `access("/etc/passwd", F_OK)`, 0 when it worked.
    public var accessErrno: Int32
    /// The real user id.
    public var uid: UInt32
    /// The effective user id.
    public var effectiveUID: UInt32
    /// The real group id.
    public var gid: UInt32
    /// The effective capability set, as a bit mask.
    public var effectiveCapabilities: UInt64
    /// The permitted capability set, as a bit mask.
    public var permittedCapabilities: UInt64
    /// RLIMIT_CPU's soft limit in seconds (-1 unlimited).
    public var cpuSoftLimit: Int64
    /// RLIMIT_CPU's hard limit in seconds (-1 unlimited).
    public var cpuHardLimit: Int64
    /// RLIMIT_AS's hard limit in bytes (-1 unlimited).
    public var addressSpaceHardLimit: Int64
    /// The errno of an attempt to lift RLIMIT_CPU, 0 when it was lifted.
    public var raiseCPULimitErrno: Int32
}
