import BlurModel
import Foundation
import PhotoChecks
import TestFixtures
import Testing
@testable import PhotoValidation

/// The blur model beside the score (issue 64): `details.blur_probability` on every decoded photo,
/// and with `blur.judge = model` the verdict from the probability alone, judged again from kept
/// measurements as the scores cache does.
@Suite("The blur model's probability and the blur judge", .timeLimit(.minutes(10)))
struct BlurJudgeTests {
    /// The measurements and answer of `name` (testdata/photos) with `settings`, on a thread of its own.
    private func measured(_ name: String, as photoType: PhotoType, settings: ValidationSettings) async throws -> (ValidatePhotoOutput, PhotoMeasurements) {
        let data = try Data(contentsOf: Fixtures.testdataFile("photos/\(name)"))
        return try await offloaded {
            let validator = try PhotoValidator(settings: settings)
            let (output, measurements) = data.withUnsafeBytes { validator.measure($0, as: photoType, fingerprint: false) }
            return (output, try #require(measurements))
        }
    }

    @Test("details carry blur_probability and its threshold beside blur_score, snake_case")
    func reported() async throws {
        let (output, measurements) = try await measured("cups.jpg", as: .inspiration, settings: ValidationSettings())
        let probability = try #require(output.details.blurProbability)
        #expect((0...1).contains(probability))
        #expect(output.details.blurProbabilityThreshold == BlurModel.shipped.thresholdInspiration)
        #expect(measurements.first?.blurProbability == probability)
        #expect(measurements.first?.blurTiles?.count == BlurModel.shipped.maxTiles)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(output)) as! [String: Any]
        let details = try #require(object["details"] as? [String: Any])
        // JSONSerialization reads the number back within an ulp of JSONEncoder's.
        #expect(abs(try #require(details["blur_probability"] as? Double) - probability) < 1e-12)
        #expect(details["blur_score"] is Double && details["laplacian_variance"] is Double)
    }

    @Test("with blur.judge = model a photo is blurry exactly when its probability reaches the threshold, whatever its score")
    func modelDecides() async throws {
        var settings = ValidationSettings()
        settings.blurJudge = .model
        // A score threshold no photo reaches: the score alone would call every photo blurry.
        settings.inspirationBlurThreshold = 1_000_000
        let (output, measurements) = try await measured("cups.jpg", as: .inspiration, settings: settings)
        let probability = try #require(output.details.blurProbability)
        #expect(output.failures.contains(.blurry) == (probability >= settings.inspirationBlurProbabilityThreshold))
        // The model read the first decode alone: no second decode for the score.
        #expect(measurements.second == nil && !measurements.secondSettled)
        for (threshold, blurry) in [(probability, true), (probability.nextUp, false), (0, true), (1.0.nextUp, false)] {
            var judging = settings
            judging.inspirationBlurProbabilityThreshold = threshold
            let answer = try #require(try PhotoValidator(settings: judging).judge(measurements, as: .inspiration))
            #expect(answer.failures.contains(.blurry) == blurry, "threshold \(threshold)")
            #expect(answer.details.blurProbabilityThreshold == threshold)
        }
        // The score judge needs the second decode the model judge skipped: decode again.
        var scoring = settings
        scoring.blurJudge = .score
        #expect(try PhotoValidator(settings: scoring).judge(measurements, as: .inspiration) == nil)
    }

    @Test("with blur.judge = score (the default) the probability is reported and the score decides")
    func scoreDecides() async throws {
        var settings = ValidationSettings()
        #expect(settings.blurJudge == .score)
        settings.inspirationBlurProbabilityThreshold = 0
        let (output, _) = try await measured("cups.jpg", as: .inspiration, settings: settings)
        let score = try #require(output.details.blurScore)
        #expect(output.failures.contains(.blurry) == (score < settings.inspirationBlurThreshold))
        #expect(output.details.blurProbability != nil)
    }

    @Test("a plane under one tile has no probability, and the score decides under the model judge too")
    func noTile() async throws {
        let png = SyntheticPNG.grey(width: 60, height: 40) { x, y in UInt8((x * 7 + y * 13) % 256) }
        var settings = ValidationSettings()
        settings.blurJudge = .model
        settings.inspirationMinimumShortSide = 1
        let chosen = settings
        let output = try await offloaded {
            let validator = try PhotoValidator(settings: chosen)
            return png.withUnsafeBytes { validator.validate($0, as: .inspiration) }
        }
        #expect(output.details.blurProbability == nil)
        let score = try #require(output.details.blurScore)
        #expect(output.failures.contains(.blurry) == (score < settings.inspirationBlurThreshold))
    }

    @Test("the scores cache's key names the blur model's version")
    func measurementKey() {
        #expect(ValidationSettings().measurementKey(for: .room).contains("model=\(BlurModel.shipped.version)"))
    }
}
