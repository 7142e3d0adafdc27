/// What the worker pool knows about jobs that outlived their deadline.
public struct WorkerPoolHealth: Sendable, Equatable {
    /// Jobs running past their deadline now, each holding a thread.
    public let overdueJobs: Int
    /// How long the oldest of them has been past its deadline, or nil when none is.
    public let longestOverdue: Duration?
    /// Threads alive, replacements included.
    public let threads: Int
    /// Jobs that ever ran past their deadline since the pool started.
    public let overdueTotal: Int
}
