/// Which waiting jobs a free thread may take (`FairQueue.popFirst(placesHeld:selecting:)`): any
/// job for a regular thread; for a spare one, only a job of a caller with none running, or of
/// another project when one project holds every thread (`ValidationThreadPool.StateMachine.sparing(_:)`).
///
/// A value the queue can answer per caller in constant time, so a spare thread finds its job
/// without looking at every project of a caller that may not have one.
enum QueueSelection: Equatable {
    /// Any waiting job.
    case any
    /// Jobs of callers other than these.
    case callers(notIn: Set<String>)
    /// Jobs of any project but this one (of any caller).
    case projects(otherThan: FairKey)

    /// True when a job of `key` may be taken.
    func allows(_ key: FairKey) -> Bool {
        switch self {
        case .any: true
        case .callers(let excluded): !excluded.contains(key.caller)
        case .projects(let other): key != other
        }
    }
}
