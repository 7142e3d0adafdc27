import Foundation
import TestFixtures
import Testing

/// `tune --check blur-model`: the blur model's probability thresholds chosen from labelled photos.
@Suite("photo-validator tune --check blur-model", .timeLimit(.minutes(10)))
struct TuneBlurModelTests {
    @Test("a labelled folder gives each type's probability threshold, in the table and in thresholds.json")
    func folder() async throws {
        let scratch = try ScratchFolder()
        for name in ["cups.jpg", "outdoor-path.jpg", "room-living-wine.jpg"] { try scratch.copy("photos/\(name)", to: "set/sharp/\(name)") }
        for name in ["blur-real-text-defocus.jpg", "blur-real-clock-motion.png", "blur-real-plate-motion.jpg"] { try scratch.copy("photos/\(name)", to: "set/blurry/\(name)") }
        let output = scratch.url.appendingPathComponent("out").path
        let outcome = try await photoValidator(["tune", "--check", "blur-model", scratch.url.appendingPathComponent("set").path, "--type", "inspiration",
                                                "--output", output, "--no-progress"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("inspiration: 3 sharp, 3 blurry, ROC AUC"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("PHOTO_VALIDATOR_BLUR_PROBABILITY_THRESHOLD_INSPIRATION="), "\(outcome.standardOutput)")
        let thresholds = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/thresholds.json"))) as? [String: [String: Double]])
        let threshold = try #require(thresholds["blur"]?["probability_threshold_inspiration"])
        #expect((0...1).contains(threshold))
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/report.json"))) as? [String: Any])
        #expect((report["objective"] as? String)?.contains("1 - blur_probability") == true)
    }
}
