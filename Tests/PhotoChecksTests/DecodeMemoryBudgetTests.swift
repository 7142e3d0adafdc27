import Admission
import Foundation
import PhotoChecks
@testable import PhotoValidation
import TestFixtures
import Testing
import ValidationThreads

/// The validator's decode memory budget (the semaphore itself is tested in AdmissionTests).
@Suite("Decode memory budget", .timeLimit(.minutes(10)))
struct DecodeMemoryBudgetTests {
    @Test("a decode whose estimate does not fit waits on its worker thread until memory is released")
    func waitsForRoom() async throws {
        let validator = try PhotoValidator(settings: ValidationSettings())
        let budget = validator.memoryBudget
        // Leave less than the HEIC needs, so its decode must wait for this reservation.
        let hog = try #require(budget.tryAcquire(budget.capacity - (1 << 20)))
        let data = try Data(contentsOf: Fixtures.testdataFile("variants/same-room.heic"))
        let pool = ValidationThreadPool(threadCount: 1, queueLimit: 0, threadExit: validator.releaseThreadResources)
        pool.start()
        async let output = pool.run { data.withUnsafeBytes { validator.validate($0, as: .room) } }
        // No deadline: other suites' synchronous work can hold the cooperative threads for a while.
        while budget.waiting == 0 { try await Task.sleep(for: .milliseconds(10)) }
        hog.release()
        let answer = try await output
        #expect(answer.details.format == "heif" && answer.details.error == nil)
        #expect(budget.held == 0 && budget.waiting == 0)
        await pool.shutdown()
    }

    @Test("validating reserves the header's estimate and gives it back")
    func validatorReleases() throws {
        let validator = try PhotoValidator(settings: ValidationSettings())
        let data = try Data(contentsOf: Fixtures.testdataFile("variants/same-room.heic"))
        let output = data.withUnsafeBytes { validator.validate($0, as: .room) }
        #expect(output.details.format == "heif")
        #expect(validator.memoryBudget.held == 0)
    }
}
