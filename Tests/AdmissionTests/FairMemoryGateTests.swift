import Admission
import Testing

// The limit only catches a hang (see WeightedSemaphoreTests).
@Suite("Fair memory gate", .timeLimit(.minutes(5)))
struct FairMemoryGateTests {
    /// Waits (briefly, by polling) until `gate` has `count` waiters.
    private func waiters(_ count: Int, on gate: FairMemoryGate) async throws {
        while gate.waiting != count { try await Task.sleep(for: .milliseconds(2)) }
    }

    @Test("a waiting caller is granted when another's units come back, and the units are counted per caller")
    func waitsAndIsGranted() async throws {
        let gate = FairMemoryGate(capacity: 64, reserve: 16)
        let first = try await gate.acquire(40, for: "big")
        #expect(gate.held(by: "big") == 40)
        // 24 free, but a second 40 does not fit: it waits.
        let second = Task { try await gate.acquire(40, for: "other") }
        try await waiters(1, on: gate)
        first.release()
        let permit = try await second.value
        #expect(permit.caller == "other" && gate.held(by: "other") == 40 && gate.held(by: "big") == 0)
        permit.release()
        #expect(gate.held == 0)
    }

    @Test("a request over the capacity is refused at once; one that cannot wait is refused timed out and leaves nothing held")
    func refusals() async throws {
        let gate = FairMemoryGate(capacity: 10, reserve: 0)
        await #expect(throws: FairMemoryGate.Refusal.tooLarge) { try await gate.acquire(11, for: "a") }
        let held = try await gate.acquire(10, for: "a")
        await #expect(throws: FairMemoryGate.Refusal.timedOut) { try await gate.acquire(1, for: "b", waitingAtMost: .zero) }
        #expect(gate.waiting == 0)
        held.release()
        #expect(gate.held == 0)
    }

    @Test("a cancelled waiter leaves the queue and a later request is served")
    func cancellation() async throws {
        let gate = FairMemoryGate(capacity: 10, reserve: 0)
        let held = try await gate.acquire(10, for: "a")
        let waiter = Task { try await gate.acquire(5, for: "b") }
        try await waiters(1, on: gate)
        waiter.cancel()
        await #expect(throws: FairMemoryGate.Refusal.cancelled) { try await waiter.value }
        #expect(gate.waiting == 0)
        held.release()
        let later = try await gate.acquire(10, for: "c")
        #expect(gate.held == 10)
        later.release()
    }
}
