/// Why the worker pool did not run a job.
public enum WorkerPoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every worker is busy and the queue is full; try again later.
    case overloaded(inFlight: Int, capacity: Int)
    /// The pool is shutting down or has not started.
    case notRunning

    /// An operator-facing explanation.
    public var description: String {
        switch self {
        case .overloaded(let inFlight, let capacity):
            "all workers are busy and the queue is full (\(inFlight) of \(capacity) jobs admitted); retry shortly"
        case .notRunning:
            "the worker pool is not running (shutting down or not started)"
        }
    }
}
