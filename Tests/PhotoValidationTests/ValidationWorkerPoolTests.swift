import Foundation
import Testing
@testable import PhotoValidation

/// A gate that blocks worker threads until opened.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait() }
    func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
}

@Suite("Worker pool")
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
        try await pool.shutdown()
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
        try await pool.shutdown()
        await #expect(throws: WorkerPoolError.notRunning) { try await pool.run { 1 } }
    }
}
