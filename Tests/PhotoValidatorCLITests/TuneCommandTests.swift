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

    @Test("--check exposure measures a labelled exposure manifest and reports the rule, the recommendation and the mean-luma peer")
    func exposure() async throws {
        let scratch = try ScratchFolder()
        try scratch.copy("photos/cups.jpg", to: "usable-1.jpg")
        try scratch.copy("photos/room-living-wine.jpg", to: "usable-2.jpg")
        // A scene in the dark (p90 about 25) and one two thirds clipped to white.
        try Data(SyntheticPNG.grey(width: 1200, height: 1024) { x, y in UInt8((x * 7 + y * 3) % 28) }).write(to: scratch.url.appendingPathComponent("dark.png"))
        try Data(SyntheticPNG.grey(width: 1200, height: 1024) { x, y in (x + y) % 3 == 0 ? UInt8(120 + x % 60) : 255 }).write(to: scratch.url.appendingPathComponent("bright.png"))
        try scratch.write("path,label,split,source\nusable-1.jpg,usable,tune,a\nusable-2.jpg,usable,held,b\ndark.png,too_dark,tune,a\nbright.png,overexposed,tune,b\n", to: "exposure.csv")
        let outcome = try await photoValidator(["tune", "--check", "exposure", scratch.url.appendingPathComponent("exposure.csv").path, "--no-progress"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Exposure check: 4 photos (usable 2, too_dark 1, overexposed 1); tuning part 3, held aside 1"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("current: p90 < 40, clipped >= 0.25 and p10 >= 86          1.000    1.000    0"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("clipped share alone: p90 < 40, clipped >= 0.25 (before)"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("mean luma < 50 / > 205 (peer)"))
        try scratch.write("path,label\nusable-1.jpg,sharp\n", to: "bad.csv")
        let bad = try await photoValidator(["tune", "--check", "exposure", scratch.url.appendingPathComponent("bad.csv").path])
        #expect(bad.status != 0 && bad.standardError.contains("needs a path and the label usable, too_dark or overexposed"), "\(bad.standardError)")
    }

    @Test("--check duplicates fingerprints labelled pairs and reports false duplicates, duplicates found and the kinds")
    func duplicates() async throws {
        let scratch = try ScratchFolder()
        for (source, name) in [("photos/cups.jpg", "cups.jpg"), ("variants/same-room.heic", "cups.heic"), ("variants/rotated-6.jpg", "cups-turned.jpg"),
                               ("photos/grass-1280x1024.jpg", "grass.jpg"), ("photos/room-living-wine.jpg", "wine.jpg"), ("photos/outdoor-path.jpg", "path.jpg")] {
            try scratch.copy(source, to: name)
        }
        try scratch.write("""
            a,b,label,transform,source,split
            cups.jpg,cups.heic,duplicate,heic,one,tune
            cups.jpg,cups-turned.jpg,duplicate,exif_rot90,one,held
            cups.jpg,grass.jpg,distinct,other,one,tune
            wine.jpg,path.jpg,distinct,other,two,tune

            """, to: "pairs.csv")
        let report = scratch.url.appendingPathComponent("report")
        let outcome = try await photoValidator(["tune", "--check", "duplicates", scratch.url.appendingPathComponent("pairs.csv").path, "--no-progress", "--output", report.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Duplicate check: 4 pairs (2 duplicates, 2 distinct); tuning part 3, held aside 1"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("Called duplicates by the current rule, by kind: exif_rot90 1/1, heic 1/1, other 0/2"), "\(outcome.standardOutput)")
        // Each pair's figures, for checking a choice pair by pair: the turned copy's features align it and its detail agrees
        // (the 2-bit coded detail's correlation: copies of the duplicate set from 0.47, distinct pairs at most 0.40).
        let rows = try String(contentsOf: report.appendingPathComponent("duplicate-pairs.csv"), encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 5)
        let turned = try #require(rows.first { $0.contains("cups-turned.jpg") }).split(separator: ",")
        #expect(turned.count == 13 && Int(turned[8]).map { $0 >= 20 } == true && Double(turned[10]).map { $0 >= 0.8 } == true, "\(turned)")
        // The candidates' screen passes both copies to the full comparison, the turned one by its features.
        #expect(Int(turned[11]).map { $0 >= 4 } == true && turned[12] == "no", "\(turned)")
        #expect(outcome.standardOutput.contains("the screen passes 2 of the 2 pairs the current rule calls duplicates"), "\(outcome.standardOutput)")
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
