import Foundation
import TestFixtures
import Testing

@Suite("photo-validator tune", .timeLimit(.minutes(10)))
struct TuneCommandTests {
    @Test("a labelled folder gives a report, a chart, a PNG and a thresholds snippet")
    func folder() async throws {
        let scratch = try ScratchFolder()
        for name in ["cups.jpg", "outdoor-path.jpg", "small-coffee.png"] { try scratch.copy("photos/\(name)", to: "set/sharp/\(name)") }
        for name in ["blur-real-text-defocus.jpg", "blur-real-clock-motion.png", "blur-real-plate-motion.jpg"] { try scratch.copy("photos/\(name)", to: "set/blurry/\(name)") }
        try scratch.write("not an image", to: "set/blurry/notes.txt")
        try scratch.write("not an image", to: "set/blurry/lies.jpg")
        let output = scratch.url.appendingPathComponent("out").path
        let outcome = try await photoValidator(["tune", scratch.url.appendingPathComponent("set").path, "--output", output])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("room: 3 sharp, 3 blurry; ROC AUC 1.0000"))
        // As in validate, a folder's non-image file is not taken; one with an image extension that does not decode is reported.
        #expect(outcome.standardError.contains("lies.jpg: not scored"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("notes.txt"))
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/report.json"))) as? [String: Any])
        let room = try #require((report["types"] as? [[String: Any]])?.first)
        #expect(room["roc_auc"] as? Double == 1)
        #expect((room["recommended"] as? [String: Any])?["balanced_accuracy"] as? Double == 1)
        #expect((room["candidates"] as? [Any])?.count == 7)
        let thresholds = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/thresholds.json"))) as? [String: [String: Double]])
        #expect(thresholds["room"]?["blur_threshold"] != nil)
        #expect(try String(contentsOfFile: output + "/report.svg", encoding: .utf8).hasPrefix("<svg"))
        let png = try Data(contentsOf: URL(fileURLWithPath: output + "/report.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("a CSV manifest with photo types gives one report per type; bad labels are usage errors")
    func manifest() async throws {
        let scratch = try ScratchFolder()
        try scratch.copy("photos/cups.jpg", to: "a.jpg")
        try scratch.copy("photos/blur-real-text-motion.jpg", to: "b.jpg")
        try scratch.copy("photos/small-cat.png", to: "c.png")
        try scratch.write("path,label,photo_type\na.jpg,sharp,room\nb.jpg,blurry,room\nc.png,sharp,inspiration\n", to: "set.csv")
        let outcome = try await photoValidator(["tune", scratch.url.appendingPathComponent("set.csv").path, "--output", scratch.url.appendingPathComponent("o").path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("room: 1 sharp, 1 blurry"))
        #expect(outcome.standardOutput.contains("inspiration: 1 sharp, 0 blurry"))
        try scratch.write("path,label\na.jpg,fuzzy\n", to: "bad.csv")
        let bad = try await photoValidator(["tune", scratch.url.appendingPathComponent("bad.csv").path])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("bad.csv:2"))
    }
}
