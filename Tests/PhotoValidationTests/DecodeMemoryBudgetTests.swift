import Foundation
import Synchronization
import TestFixtures
import Testing
import ValidationWorkers
@testable import PhotoValidation

@Suite("Decode memory budget", .timeLimit(.minutes(10)))
struct DecodeMemoryBudgetTests {
    @Test("a decode that does not fit waits until memory is released")
    func waitsForRoom() async throws {
        let budget = DecodeMemoryBudget(limit: 100)
        let first = budget.acquire(70)
        let pool = ValidationWorkerPool(threadCount: 1, queueLimit: 0)
        pool.start()
        let started = Atomic(false), acquired = Atomic(false)
        async let second = pool.run {
            started.store(true, ordering: .sequentiallyConsistent)
            let amount = budget.acquire(50)
            acquired.store(true, ordering: .sequentiallyConsistent)
            return amount
        }
        // Only once the job is inside acquire does "still waiting" mean anything. No deadline here:
        // other suites' synchronous work can hold the cooperative threads for a while.
        while !started.load(ordering: .sequentiallyConsistent) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(100))
        // Still waiting: 70 + 50 would exceed 100.
        let acquiredEarly = acquired.load(ordering: .sequentiallyConsistent)
        #expect(!acquiredEarly)
        #expect(budget.reserved == 70)
        budget.release(first)
        let reserved = try await second
        #expect(reserved == 50 && budget.reserved == 50)
        budget.release(reserved)
        await pool.shutdown()
    }

    @Test("a decode larger than the whole budget runs alone rather than never")
    func oversizedRunsAlone() {
        let budget = DecodeMemoryBudget(limit: 100)
        let amount = budget.acquire(1_000)
        #expect(budget.reserved == 1_000)
        budget.release(amount)
        #expect(budget.reserved == 0)
    }

    @Test("validating reserves the header's estimate and gives it back")
    func validatorReleases() throws {
        let validator = try PhotoValidator(settings: ValidationSettings())
        let data = try Data(contentsOf: Fixtures.testdataFile("variants/same-room.heic"))
        let output = data.withUnsafeBytes { validator.validate($0, as: .room) }
        #expect(output.details.format == "heif")
        #expect(validator.memoryBudget.reserved == 0)
    }
}
