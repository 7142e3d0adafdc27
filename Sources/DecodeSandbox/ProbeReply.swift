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
}
