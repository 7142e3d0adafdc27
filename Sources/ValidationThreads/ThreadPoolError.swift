/// Why the worker pool did not run a job, or did not finish it in time.
package enum ThreadPoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every worker is busy and the queue is full; try again later.
    case overloaded(inFlight: Int, capacity: Int)
    /// The pool is shutting down or has not started.
    case notRunning
    /// The job's deadline passed, while it waited or while it ran; a running job goes on to its
    /// end on its thread, and its result is dropped.
    case timedOut(after: Duration)

    /// True for `overloaded`.
    package var isOverloaded: Bool {
        if case .overloaded = self { return true }
        return false
    }

    /// An operator-facing explanation.
    package var description: String {
        switch self {
        case .overloaded(let inFlight, let capacity):
            "all workers are busy and the queue is full (\(inFlight) of \(capacity) jobs admitted); retry shortly"
        case .notRunning:
            "the worker pool is not running (shutting down or not started)"
        case .timedOut(let after):
            "the job did not finish within \(after / .seconds(1)) s"
        }
    }
}
