import Testing
@testable import SignalForwarding

/// The delivery loop's wake-up, as a value: what ends a wait and what is kept for the next.
@Suite("Wakeup state")
struct WakeupStateTests {
    @Test("a wait ended early by a signal leaves nothing behind: its timer, cancelled or late, does not end the next wait")
    func earlyEndLeavesNoWakeup() {
        var state = WakeupState<String>()
        let first = state.begin()
        let firstParked = state.park("first", wait: first)
        #expect(firstParked)
        let woken = state.signal()
        #expect(woken == "first")
        // The first wait's timer, cancelled as the wait ended (or firing just then).
        let lateTimer = state.expire(first)
        #expect(lateTimer == nil)
        #expect(!state.pending, "no wake-up is left for the next wait")
        let second = state.begin()
        let secondParked = state.park("second", wait: second)
        #expect(secondParked, "the next wait waits")
        let staleTimer = state.expire(first)
        #expect(staleTimer == nil, "a stale timer does not end a later wait")
        let ownTimer = state.expire(second)
        #expect(ownTimer == "second", "its own timer does")
    }

    @Test("a signal while nobody waits is kept for the next wait, once")
    func signalKept() {
        var state = WakeupState<String>()
        let woken = state.signal()
        #expect(woken == nil)
        #expect(state.pending)
        let first = state.begin()
        let firstParked = state.park("first", wait: first)
        #expect(!firstParked, "the wait ends at once")
        #expect(!state.pending)
        let second = state.begin()
        let secondParked = state.park("second", wait: second)
        #expect(secondParked, "and only that one")
    }

    @Test("a timer that runs out before its wait parks ends the wait as it parks")
    func expiredBeforeParking() {
        var state = WakeupState<String>()
        let first = state.begin()
        let expired = state.expire(first)
        #expect(expired == nil)
        let firstParked = state.park("first", wait: first)
        #expect(!firstParked)
        let second = state.begin()
        let secondParked = state.park("second", wait: second)
        #expect(secondParked, "the expiry belonged to the first wait only")
    }
}
