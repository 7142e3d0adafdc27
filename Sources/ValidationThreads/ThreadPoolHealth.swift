/// What the worker pool knows about jobs that outlived their deadline.
package struct ThreadPoolHealth: Sendable, Equatable {
    /// Jobs running past their deadline now, each holding a thread.
    package let overdueJobs: Int
    /// How long the oldest of them has been past its deadline, or nil when none is.
    package let longestOverdue: Duration?
    /// Threads alive, replacements included.
    package let threads: Int
    /// Jobs that ever ran past their deadline since the pool started.
    package let overdueTotal: Int
}
