import Foundation

/// Wakes the photos that await a replacement worker when the supervisor's workers may have
/// changed (a replacement got ready or failed, a worker was checked in idle), so that such a photo
/// sleeps until then or its deadline instead of asking the supervisor again every few
/// milliseconds. A waiter reads `generation` before it asks the supervisor: any change made after
/// that answer moves the generation, so it is never slept through.
final class IdleWorkerSignal: @unchecked Sendable {
    // `count` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var count: UInt64 = 0

    /// The count of changes so far: read it before asking the supervisor, then `wait(after:until:)`.
    var generation: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// The workers may have changed: every waiter asks the supervisor again.
    func changed() {
        condition.lock()
        count &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps until a change after `seen` (a `generation` read earlier), or until `deadline`.
    func wait(after seen: UInt64, until deadline: ContinuousClock.Instant) {
        condition.lock()
        defer { condition.unlock() }
        while count == seen {
            let (seconds, attoseconds) = (deadline - .now).components
            let left = Double(seconds) + Double(attoseconds) / 1e18
            guard left > 0 else { return }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
    }
}
