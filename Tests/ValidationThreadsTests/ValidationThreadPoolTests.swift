import Foundation
import TestFixtures
import Testing
@testable import ValidationThreads

// The pool on real threads: what its state machine decides (admission, turns, expiry, stand-ins)
// is tested without threads in ValidationThreadPoolStateMachineTests; these check that the threads
// carry it out. The limit only catches a hang (see WeightedSemaphoreTests: a full run starts with
// the cooperative threads busy).
@Suite("Worker pool", .timeLimit(.minutes(5)))
struct ValidationThreadPoolTests {
    @Test("runs jobs on worker threads and returns their results")
    func runs() async throws {
        let pool = ValidationThreadPool(threadCount: 2, queueLimit: 2)
        pool.start()
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<4 { group.addTask { try await pool.run { value * 2 } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == [0, 2, 4, 6])
        await pool.shutdown()
    }

    @Test("work submitted before start() waits in the queue for the threads; a pool shut down unstarted ends it")
    func submittedBeforeStart() async throws {
        let pool = ValidationThreadPool(threadCount: 1, queueLimit: 2)
        async let early = pool.run { 42 }
        while pool.queued < 1 { try await Task.sleep(for: .milliseconds(5)) }
        pool.start()
        #expect(try await early == 42)
        await pool.shutdown()

        let unstarted = ValidationThreadPool(threadCount: 1, queueLimit: 2)
        async let stranded = unstarted.run { 1 }
        while unstarted.queued < 1 { try await Task.sleep(for: .milliseconds(5)) }
        await unstarted.shutdown()
        var strandedError: (any Error)?
        do {
            _ = try await stranded
        } catch {
            strandedError = error
        }
        #expect(strandedError is ThreadPoolError, "a job queued in a pool shut down unstarted must end with a pool error")
        await #expect(throws: ThreadPoolError.notRunning) { try await unstarted.run { 1 } }
    }

    @Test("refuses work at once when every thread is busy and the queue is full")
    func overload() async throws {
        let pool = ValidationThreadPool(threadCount: 1, queueLimit: 1)
        pool.start()
        let gate = Gate()
        async let first = pool.run { gate.wait(); return 1 }
        async let second = pool.run { gate.wait(); return 2 }
        while pool.inFlight < 2 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: ThreadPoolError.overloaded(inFlight: 2, capacity: 2)) {
            try await pool.run { 1 }
        }
        gate.open(2)
        #expect(try await first + second == 3)
        #expect(try await pool.run { 7 } == 7)
        await pool.shutdown()
        await #expect(throws: ThreadPoolError.notRunning) { try await pool.run { 1 } }
    }

    @Test("a job past its deadline is answered timedOut at once while its thread stays with it, and a stand-in keeps the capacity")
    func deadlineHoldsWhileRunning() async throws {
        let pool = ValidationThreadPool(threadCount: 1, queueLimit: 1, maximumReplacements: 1, tick: .milliseconds(10))
        pool.start()
        let gate = Gate()
        // The job blocks until the gate opens, so an answer here can only come from the deadline.
        await #expect(throws: ThreadPoolError.self) {
            try await pool.run(runLimit: .milliseconds(100)) { gate.wait(); return 1 }
        }
        // The stuck job still holds its thread; a stand-in thread serves the next job.
        let health = pool.health
        #expect(health.overdueJobs == 1 && health.threads == 2)
        #expect(try await pool.run { 7 } == 7)
        #expect(pool.health.longestOverdue != nil)
        gate.open(1)
        // Once the stuck job returns, its result is dropped and the extra thread goes away.
        while pool.health.overdueJobs > 0 || pool.health.threads > 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pool.health.overdueTotal == 1)
        #expect(try await pool.run { 8 } == 8)
        await pool.shutdown()
    }

    @Test("with every stand-in used up, jobs wait for the stuck threads; shutdown does not wait for them")
    func shutdownLeavesStuckThreads() async throws {
        let pool = ValidationThreadPool(threadCount: 1, queueLimit: 4, maximumReplacements: 1, tick: .milliseconds(10))
        pool.start()
        let gate = Gate()
        for _ in 0..<2 {
            await #expect(throws: ThreadPoolError.self) {
                try await pool.run(runLimit: .milliseconds(50)) { gate.wait(); return 0 }
            }
        }
        #expect(pool.health.overdueJobs == 2)
        // No thread is free and no stand-in may be started: a new job times out waiting.
        await #expect(throws: ThreadPoolError.self) {
            try await pool.withSlot { try await $0.run(deadline: .now + .milliseconds(100)) { 1 } }
        }
        // Returns although two jobs still block: shutdown leaves overdue threads to the process exit.
        await pool.shutdown()
        gate.open(2)
    }
}
