import DecodeSandbox
import Foundation
import PhotoChecks
import PhotoValidation
import TestFixtures
import Testing

/// The blur model's figures and settings cross the worker wall (issue 64): the probability and its
/// tiles come back as the in-process checks measure them, and `blur.judge = model` with its
/// thresholds reaches the worker in its setup.
@Suite("The blur probability across the worker wall", .integration, .serialized, .timeLimit(.minutes(5)))
struct BlurProbabilityWallTests {
    /// Workers started from the built `photo-validator` with `settings`.
    private func decoding(_ settings: ValidationSettings) throws -> SandboxedDecoding {
        let options = SandboxOptions(executable: ProcessRunner.photoValidatorExecutable.path, maximumIdle: 1, photoTimeLimit: .seconds(20))
        return try SandboxedDecoding(settings: settings, options: options)
    }

    @Test("a worker reports the in-process probability and tiles, and judges by the model when told")
    func crosses() throws {
        var settings = ValidationSettings()
        settings.blurJudge = .model
        // Every probability is at least 0: with the model judging, every decoded photo is blurry.
        settings.inspirationBlurProbabilityThreshold = 0
        settings.inspirationBlurThreshold = 0
        let workers = try decoding(settings)
        defer { workers.shutdown() }
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
        let isolated = bytes.withUnsafeBytes { workers.measure($0, as: .inspiration, fingerprint: false) }
        let local = try bytes.withUnsafeBytes { try InProcessChecks(settings: settings).measuredCheck($0, as: .inspiration, previews: nil, fingerprint: false) }
        let probability = try #require(isolated.output.details.blurProbability)
        #expect(probability == local.output.details.blurProbability)
        #expect(isolated.output.details.blurProbabilityThreshold == 0)
        #expect(isolated.output.failures.contains(.blurry), "the score alone (threshold 0) passes it")
        #expect(isolated.measurements?.first?.blurTiles == local.measurements?.first?.blurTiles)
        #expect(isolated.measurements?.first?.blurTiles?.isEmpty == false)
    }
}
