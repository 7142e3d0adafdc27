import Admission
import Foundation
import Synchronization
import Testing

/// Values shared between test tasks (Mutex itself cannot be captured by them).
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}

// The limit only catches a hang: at the start of a full run the pure-CPU suites beside it (BlurMetrics
// in a debug build) can hold Swift's cooperative threads for most of a minute.
@Suite("Weighted semaphore", .timeLimit(.minutes(5)))
struct WeightedSemaphoreTests {
    /// Waits (briefly, by polling) until `semaphore` has `count` waiters.
    private func waiters(_ count: Int, on semaphore: WeightedSemaphore) async throws {
        while semaphore.waiting != count { try await Task.sleep(for: .milliseconds(2)) }
    }

    @Test("units that fit are granted at once and given back on release")
    func grantsAndReleases() async throws {
        let semaphore = WeightedSemaphore(capacity: 100)
        let first = try await semaphore.acquire(60)
        let second = try await semaphore.acquire(40)
        #expect(semaphore.held == 100)
        #expect(semaphore.tryAcquire(1) == nil)
        first.release()
        second.release()
        #expect(semaphore.held == 0)
    }

    @Test("a request larger than the whole capacity is refused at once, never queued")
    func oversize() async throws {
        let semaphore = WeightedSemaphore(capacity: 10)
        await #expect(throws: WeightedSemaphore.Refusal.tooLarge) { try await semaphore.acquire(11) }
        #expect(throws: WeightedSemaphore.Refusal.tooLarge) { try semaphore.acquireBlocking(11) }
        #expect(semaphore.tryAcquire(11) == nil)
        #expect(semaphore.held == 0 && semaphore.waiting == 0)
    }

    @Test("waiters are served first come first served: a large one is not overtaken by small ones")
    func fifo() async throws {
        let semaphore = WeightedSemaphore(capacity: 10)
        let holder = try await semaphore.acquire(8)
        let order = Shared<[String]>([])
        async let large: Void = {
            let permit = try await semaphore.acquire(10)
            order.update { $0.append("large") }
            permit.release()
        }()
        try await waiters(1, on: semaphore)
        // Two units are free, yet the small request queues behind the large one.
        #expect(semaphore.tryAcquire(1) == nil)
        async let small: Void = {
            let permit = try await semaphore.acquire(1)
            order.update { $0.append("small") }
            permit.release()
        }()
        try await waiters(2, on: semaphore)
        holder.release()
        _ = try await (large, small)
        #expect(order.current == ["large", "small"])
        #expect(semaphore.held == 0)
    }

    @Test("a wait that runs out is refused, holds nothing, and lets the waiters behind it in")
    func timeout() async throws {
        let semaphore = WeightedSemaphore(capacity: 10)
        let holder = try await semaphore.acquire(5)
        await #expect(throws: WeightedSemaphore.Refusal.timedOut) { try await semaphore.acquire(10, waitingAtMost: .milliseconds(20)) }
        await #expect(throws: WeightedSemaphore.Refusal.timedOut) { try await semaphore.acquire(10, waitingAtMost: .zero) }
        #expect(semaphore.held == 5 && semaphore.waiting == 0)
        // A large waiter that times out must not keep blocking the small one queued behind it.
        let large = Task { try await semaphore.acquire(10, waitingAtMost: .milliseconds(50)) }
        try await waiters(1, on: semaphore)
        async let small = semaphore.acquire(5, waitingAtMost: .seconds(30))
        try await waiters(2, on: semaphore)
        await #expect(throws: WeightedSemaphore.Refusal.timedOut) { try await large.value }
        let permit = try await small
        #expect(semaphore.held == 10)
        permit.release()
        holder.release()
        #expect(semaphore.held == 0)
    }

    @Test("a cancelled waiter is refused at once, however early the cancellation, and holds nothing")
    func cancellation() async throws {
        let semaphore = WeightedSemaphore(capacity: 1)
        let holder = try await semaphore.acquire(1)
        // Cancelled while queued, with no time limit of its own: only the cancellation can end
        // the wait (were it ignored, the suite's time limit would end the test instead).
        let queued = Task { try await semaphore.acquire(1) }
        try await waiters(1, on: semaphore)
        queued.cancel()
        await #expect(throws: WeightedSemaphore.Refusal.cancelled) { try await queued.value }
        // Cancelled before it even asked: the race between arriving and the handler.
        for _ in 0..<200 {
            let early = Task { try await semaphore.acquire(1) }
            early.cancel()
            await #expect(throws: WeightedSemaphore.Refusal.cancelled) { try await early.value }
        }
        #expect(semaphore.waiting == 0 && semaphore.held == 1)
        holder.release()
        #expect(semaphore.held == 0)
    }

    @Test("a blocking waiter on its own thread is granted when units are released, in turn with async ones")
    func blocking() async throws {
        let semaphore = WeightedSemaphore(capacity: 100)
        let holder = try await semaphore.acquire(70)
        let granted = Shared(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let permit = try? semaphore.acquireBlocking(50)
            granted.update { $0 = true }
            permit?.release()
            done.signal()
        }
        try await waiters(1, on: semaphore)
        #expect(!granted.current)
        holder.release()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        #expect(granted.current)
        #expect(semaphore.held == 0)
    }

    @Test("under many concurrent holders the units held never exceed the capacity and all come back")
    func stress() async throws {
        let semaphore = WeightedSemaphore(capacity: 16)
        let peak = Shared(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<400 {
                group.addTask {
                    do {
                        let permit = try await semaphore.acquire(1 + index % 7, waitingAtMost: index % 5 == 0 ? .milliseconds(1) : nil)
                        let held = semaphore.held
                        peak.update { $0 = max($0, held) }
                        await Task.yield()
                        permit.release()
                    } catch WeightedSemaphore.Refusal.timedOut {
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(peak.current <= 16)
        #expect(semaphore.held == 0 && semaphore.waiting == 0)
    }
}
