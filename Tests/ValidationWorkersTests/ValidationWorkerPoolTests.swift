import Foundation
import Synchronization
import TestFixtures
import Testing
@testable import ValidationWorkers

// The limit only catches a hang (see WeightedSemaphoreTests: a full run starts with the cooperative threads busy).
@Suite("Worker pool", .timeLimit(.minutes(5)))
struct ValidationWorkerPoolTests {
    @Test("runs jobs on worker threads and returns their results")
    func runs() async throws {
        let pool = ValidationWorkerPool(threadCount: 2, queueLimit: 2)
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
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 2)
        async let early = pool.run { 42 }
        while pool.queued < 1 { try await Task.sleep(for: .milliseconds(5)) }
        pool.start()
        #expect(try await early == 42)
        await pool.shutdown()

        let unstarted = ValidationWorkerPool(threadCount: 1, queueLimit: 2)
        async let stranded = unstarted.run { 1 }
        while unstarted.queued < 1 { try await Task.sleep(for: .milliseconds(5)) }
        await unstarted.shutdown()
        var strandedError: (any Error)?
        do {
            _ = try await stranded
        } catch {
            strandedError = error
        }
        #expect(strandedError is WorkerPoolError, "a job queued in a pool shut down unstarted must end with a pool error")
        await #expect(throws: WorkerPoolError.notRunning) { try await unstarted.run { 1 } }
    }

    @Test("refuses work at once when every thread is busy and the queue is full")
    func overload() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 1)
        pool.start()
        let gate = Gate()
        async let first = pool.run { gate.wait(); return 1 }
        async let second = pool.run { gate.wait(); return 2 }
        while pool.inFlight < 2 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: WorkerPoolError.overloaded(inFlight: 2, capacity: 2)) {
            try await pool.run { 1 }
        }
        gate.open(2)
        #expect(try await first + second == 3)
        #expect(try await pool.run { 7 } == 7)
        await pool.shutdown()
        await #expect(throws: WorkerPoolError.notRunning) { try await pool.run { 1 } }
    }

    @Test("a job past its deadline is answered timedOut at once while its thread stays with it, and a stand-in keeps the capacity")
    func deadlineHoldsWhileRunning() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 1, maximumReplacements: 1, tick: .milliseconds(10))
        pool.start()
        let gate = Gate()
        // The job blocks until the gate opens, so an answer here can only come from the deadline.
        await #expect(throws: WorkerPoolError.self) {
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

    @Test("a job whose deadline passes while it waits never runs")
    func expiresInQueue() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 1, maximumReplacements: 0, tick: .milliseconds(10))
        pool.start()
        let gate = Gate()
        let ran = Atomic<Bool>(false)
        async let blocker = pool.run(runLimit: .seconds(30)) { gate.wait(); return 1 }
        while pool.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: WorkerPoolError.self) {
            try await pool.withSlot { slot in
                try await slot.run(deadline: .now + .milliseconds(50)) { ran.store(true, ordering: .relaxed); return 2 }
            }
        }
        gate.open(1)
        #expect(try await blocker == 1)
        await pool.shutdown()
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    @Test("with every stand-in used up, jobs wait for the stuck threads; shutdown does not wait for them")
    func shutdownLeavesStuckThreads() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 4, maximumReplacements: 1, tick: .milliseconds(10))
        pool.start()
        let gate = Gate()
        for _ in 0..<2 {
            await #expect(throws: WorkerPoolError.self) {
                try await pool.run(runLimit: .milliseconds(50)) { gate.wait(); return 0 }
            }
        }
        #expect(pool.health.overdueJobs == 2)
        // No thread is free and no stand-in may be started: a new job times out waiting.
        await #expect(throws: WorkerPoolError.self) {
            try await pool.withSlot { try await $0.run(deadline: .now + .milliseconds(100)) { 1 } }
        }
        // Returns although two jobs still block: shutdown leaves overdue threads to the process exit.
        await pool.shutdown()
        gate.open(2)
    }

    @Test("a second client's job starts within one job of a busy client's backlog, not after it")
    func clientsServedInTurn() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 16)
        pool.start()
        let order = Log()
        let gate = Gate()
        // The busy client's first job holds the only thread until the others are queued.
        async let first: Void = pool.withSlot(for: FairKey(caller: "busy")) { slot in
            try await slot.run { gate.wait(); order.lines.withLock { $0.append("busy") } }
        }
        while pool.inFlight < 1 { try await Task.sleep(for: .milliseconds(5)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 {
                group.addTask { try await pool.withSlot(for: FairKey(caller: "busy")) { slot in try await slot.run { order.lines.withLock { $0.append("busy") } } } }
            }
            while pool.queued < 5 { try await Task.sleep(for: .milliseconds(5)) }
            group.addTask { try await pool.withSlot(for: FairKey(caller: "other")) { slot in try await slot.run { order.lines.withLock { $0.append("other") } } } }
            while pool.queued < 6 { try await Task.sleep(for: .milliseconds(5)) }
            gate.open(10)
            try await group.waitForAll()
        }
        try await first
        let served = order.lines.withLock { $0 }
        #expect(served.count == 7)
        // The running job, then at most one more of the busy client's before the other's.
        #expect((served.firstIndex(of: "other") ?? 99) <= 2, "\(served)")
        await pool.shutdown()
    }

    @Test("a full pool still admits a client holding fewer places: the busiest client's newest waiting job gives way")
    func fullPoolAdmitsLightClient() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 3)
        pool.start()
        let gate = Gate()
        let outcomes = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    do {
                        try await pool.withSlot(for: FairKey(caller: "busy")) { slot in try await slot.run { gate.wait() } }
                        outcomes.lines.withLock { $0.append("busy-\(index) ran") }
                    } catch let error as WorkerPoolError {
                        if case .overloaded = error { outcomes.lines.withLock { $0.append("busy refused") } }
                    }
                }
                while pool.inFlight < index + 1 { try await Task.sleep(for: .milliseconds(5)) }
            }
            while pool.queued < 3 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(pool.inFlight(of: "busy") == 4)
            group.addTask {
                try await pool.withSlot(for: FairKey(caller: "light")) { slot in try await slot.run {} }
                outcomes.lines.withLock { $0.append("light ran") }
            }
            while !outcomes.lines.withLock({ $0.contains("busy refused") }) { try await Task.sleep(for: .milliseconds(5)) }
            gate.open(10)
            try await group.waitForAll()
        }
        let result = outcomes.lines.withLock { $0 }
        #expect(result.contains("light ran"))
        #expect(result.filter { $0 == "busy refused" }.count == 1, "\(result)")
        await pool.shutdown()
    }
}

extension ValidationWorkerPoolTests {
    @Test("a caller with a new project per job fills the pool: another caller is still admitted and served next, one flood job gives way")
    func newProjectPerJobCannotCrowdOut() async throws {
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 4)
        pool.start()
        let gate = Gate()
        let outcomes = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask {
                    do {
                        try await pool.withSlot(for: FairKey(caller: "flooder", project: "p\(index)")) { slot in
                            try await slot.run { gate.wait(); outcomes.lines.withLock { $0.append("flood-\(index)") } }
                        }
                    } catch let error as WorkerPoolError {
                        if case .overloaded = error { outcomes.lines.withLock { $0.append("flood refused") } }
                    }
                }
                while pool.inFlight < index + 1 { try await Task.sleep(for: .milliseconds(5)) }
            }
            while pool.queued < 4 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(pool.inFlight(of: "flooder") == 5)
            group.addTask {
                try await pool.withSlot(for: FairKey(caller: "good", project: "home")) { slot in
                    try await slot.run { outcomes.lines.withLock { $0.append("good") } }
                }
            }
            while !outcomes.lines.withLock({ $0.contains("flood refused") }) { try await Task.sleep(for: .milliseconds(5)) }
            while pool.queued < 4 { try await Task.sleep(for: .milliseconds(5)) }
            gate.open(10)
            try await group.waitForAll()
        }
        let result = outcomes.lines.withLock { $0 }
        #expect(result.filter { $0 == "flood refused" }.count == 1, "\(result)")
        // The running flood job, then the good caller's, which has nothing under way (one queue per
        // project would have served it after all of the flooder's); its newest gave way.
        #expect(result.filter { $0 != "flood refused" } == ["flood-0", "good", "flood-1", "flood-2", "flood-3"], "\(result)")
        await pool.shutdown()
    }
}

/// Lines appended by concurrent jobs.
private final class Log: Sendable {
    let lines = Mutex<[String]>([])
}
