/// The state of a `Wakeup`, without threads: a wake-up kept for the next wait, and the current wait
/// (its number, the waiter parked on it, whether its time ran out before it parked).
///
/// Each wait has a number, and its timer ends only that wait: a timer cancelled because its wait
/// ended early, or firing just after, changes nothing. (It used to call `signal()` either way, which
/// left a wake-up pending, so the next wait returned at once and cancelled its own timer, which
/// signalled again: after the first promised signal the delivery loop polled the outbox without
/// pause, a core per daemon.)
struct WakeupState<Waiter> {
    /// A `signal()` no wait has taken yet.
    private(set) var pending = false
    /// The number of the current (latest begun) wait.
    private var current: UInt64 = 0
    /// The current wait's time ran out before it parked.
    private var currentExpired = false
    /// The current wait's waiter, while it is parked.
    private var waiter: Waiter?

    /// An empty state: no wake-up pending, nobody waiting.
    init() {}

    /// Begins a wait and returns its number, for its timer's `expire`.
    mutating func begin() -> UInt64 {
        current += 1
        currentExpired = false
        return current
    }

    /// Parks `waiter` on wait `number`; false when the wait ends at once instead (a pending wake-up,
    /// which it takes, or its time already ran out), and the caller resumes it.
    mutating func park(_ waiter: Waiter, wait number: UInt64) -> Bool {
        if pending {
            pending = false
            return false
        }
        if number == current && currentExpired { return false }
        self.waiter = waiter
        return true
    }

    /// Wakes the parked waiter (returned, to be resumed), or keeps the wake-up for the next wait.
    mutating func signal() -> Waiter? {
        if let waiter {
            self.waiter = nil
            return waiter
        }
        pending = true
        return nil
    }

    /// Wait `number`'s time ran out: returns its waiter to resume when it is parked; a wait not yet
    /// parked ends as it parks; a wait that already ended, or a later one, is left alone.
    mutating func expire(_ number: UInt64) -> Waiter? {
        guard number == current else { return nil }
        if let waiter {
            self.waiter = nil
            return waiter
        }
        currentExpired = true
        return nil
    }
}
