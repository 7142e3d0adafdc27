import Synchronization

/// Stops calling a provider that keeps failing: after `failureThreshold` consecutive failures it
/// opens for `openDuration`, during which checks are refused at once; then one probe is let
/// through (half-open), whose success closes it and whose failure opens it again.
package final class CircuitBreaker: Sendable {
    /// The breaker's states, as metrics and logs name them.
    package enum State: String, Sendable {
        /// Calls go through.
        case closed
        /// Calls are refused.
        case open
        /// One probe call is in flight or allowed.
        case halfOpen = "half_open"
    }

    private struct Storage {
        var state: State = .closed
        var failures = 0
        var openedAt: ContinuousClock.Instant?
        var probeInFlight = false
    }

    /// Consecutive failures that open the breaker.
    package let failureThreshold: Int
    /// How long it stays open.
    package let openDuration: Duration
    private let storage = Mutex(Storage())
    private let onChange: @Sendable (State) -> Void

    /// A closed breaker; `onChange` hears every change of state.
    package init(failureThreshold: Int, openDuration: Duration, onChange: @escaping @Sendable (State) -> Void = { _ in }) {
        self.failureThreshold = failureThreshold
        self.openDuration = openDuration
        self.onChange = onChange
    }

    /// The current state.
    package var state: State { storage.withLock { $0.state } }

    /// True when a call may be made now; an open breaker whose time is up lets one probe through.
    package func admit() -> Bool {
        let (allowed, changed) = storage.withLock { storage -> (Bool, State?) in
            switch storage.state {
            case .closed:
                return (true, nil)
            case .open:
                guard let openedAt = storage.openedAt, ContinuousClock.now - openedAt >= openDuration else { return (false, nil) }
                storage.state = .halfOpen
                storage.probeInFlight = true
                return (true, .halfOpen)
            case .halfOpen:
                guard !storage.probeInFlight else { return (false, nil) }
                storage.probeInFlight = true
                return (true, nil)
            }
        }
        if let changed { onChange(changed) }
        return allowed
    }

    /// Records a call that succeeded (or failed for a reason that is not the provider's health).
    package func recordSuccess() {
        let changed = storage.withLock { storage -> State? in
            storage.failures = 0
            storage.probeInFlight = false
            guard storage.state != .closed else { return nil }
            storage.state = .closed
            storage.openedAt = nil
            return .closed
        }
        if let changed { onChange(changed) }
    }

    /// Gives back a probe that was admitted but never made (no place among the concurrent calls),
    /// so the next caller may probe.
    package func cancelProbe() {
        storage.withLock { storage in
            if storage.state == .halfOpen { storage.probeInFlight = false }
        }
    }

    /// Records a call that failed because of the provider.
    package func recordFailure() {
        let changed = storage.withLock { storage -> State? in
            storage.failures += 1
            storage.probeInFlight = false
            guard storage.state == .halfOpen || (storage.state == .closed && storage.failures >= failureThreshold) else { return nil }
            storage.state = .open
            storage.openedAt = .now
            return .open
        }
        if let changed { onChange(changed) }
    }
}
