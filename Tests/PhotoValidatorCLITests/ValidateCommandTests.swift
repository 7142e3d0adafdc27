import Foundation
import TestFixtures
import Testing
@testable import PhotoValidatorCLI

/// A scratch folder tree for one test, removed afterwards.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pv-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Copies the testdata file `source` to `relativePath` inside the scratch folder.
    func copy(_ source: String, to relativePath: String) throws {
        let destination = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.testdataFile(source), to: destination)
    }

    /// Writes `text` to `relativePath`.
    func write(_ text: String, to relativePath: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(relativePath))
    }
}

/// Runs the built `photo-validator` with `arguments`.
func photoValidator(_ arguments: [String]) async throws -> ProcessRunner.Outcome {
    try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, arguments, environment: ["PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD": "0"])
}

/// The JSON objects of a jsonl output.
func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

@Suite("photo-validator validate, end to end", .integration, .timeLimit(.minutes(10)))
struct ValidateCommandTests {
    @Test("exit 0 when every photo passes, with one jsonl record each")
    func allPass() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "a/cups.jpg")
        try folder.copy("photos/outdoor-path.jpg", to: "b/c/path.jpg")
        let outcome = try await photoValidator(["validate", folder.url.path, "--format", "jsonl"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let records = try jsonLines(outcome.standardOutput)
        #expect(records.count == 2)
        for record in records {
            #expect(Set(record.keys) == ["path", "passed", "failures", "messages", "details"])
            #expect(record["passed"] as? Bool == true)
            #expect(record["messages"] as? [String] == ["Photo looks great!"])
            #expect((record["details"] as? [String: Any])?["format"] as? String == "jpeg")
        }
        #expect(outcome.standardError.contains("2 photos: 2 passed, 0 failed"))
    }

    @Test("a folder is one project: a later copy of a passed photo is duplicate_photo naming the earlier file and counted; --duplicates run and off")
    func duplicates() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "flat-1/a-cups.jpg")
        try folder.copy("variants/same-room.heic", to: "flat-1/b-cups-again.heic")
        try folder.copy("photos/outdoor-path.jpg", to: "flat-1/c-path.jpg")
        try folder.copy("variants/rotated-8.jpg", to: "flat-2/cups-turned.jpg")
        let byFolder = try await photoValidator(["validate", folder.url.path, "--format", "jsonl", "--type", "inspiration"])
        #expect(byFolder.status == 1)
        let records = try jsonLines(byFolder.standardOutput)
        let failed = records.filter { ($0["failures"] as? [String])?.isEmpty == false }
        #expect(failed.count == 1)
        #expect((failed.first?["path"] as? String)?.hasSuffix("flat-1/b-cups-again.heic") == true)
        #expect(failed.first?["failures"] as? [String] == ["duplicate_photo"])
        #expect(((failed.first?["details"] as? [String: Any])?["duplicate_of"] as? String)?.hasSuffix("flat-1/a-cups.jpg") == true)
        #expect(byFolder.standardError.contains("duplicate_photo 1"), "\(byFolder.standardError)")

        let wholeRun = try await photoValidator(["validate", folder.url.path, "--format", "jsonl", "--type", "inspiration", "--duplicates", "run"])
        #expect(byFolder.standardError.contains("4 photos"))
        #expect(wholeRun.standardError.contains("duplicate_photo 2"), "\(wholeRun.standardError)")
        let off = try await photoValidator(["validate", folder.url.path, "--type", "inspiration", "--duplicates", "off"])
        #expect(off.status == 0, "\(off.standardError)")
    }

    @Test("--include and --exclude globs choose a folder's files; one photo reads \"1 photo\"")
    func globs() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "a/cups.jpg")
        try folder.copy("photos/outdoor-path.jpg", to: "b/path.jpg")
        try folder.write("not an image", to: "b/notes.txt")
        let excluded = try await photoValidator(["validate", folder.url.path, "--format", "jsonl", "--exclude", "b/*"])
        #expect(try jsonLines(excluded.standardOutput).count == 1)
        #expect(excluded.standardError.contains("1 photo: 1 passed, 0 failed"), "\(excluded.standardError)")
        #expect(excluded.standardError.contains("; 2 skipped"), "\(excluded.standardError)")
        let included = try await photoValidator(["validate", folder.url.path, "--format", "jsonl", "--include", "*.txt"])
        let records = try jsonLines(included.standardOutput)
        #expect(records.map { URL(fileURLWithPath: $0["path"] as! String).lastPathComponent } == ["notes.txt"])
        #expect(records.first?["failures"] as? [String] == ["invalid_image"])
    }

    @Test("exit 1 when any photo fails; in a folder, non-image files are skipped and an image extension that does not decode is invalid_image")
    func someFail() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "cups.jpg")
        try folder.copy("photos/small-coffee.png", to: "nested/deeper/coffee.png")
        try folder.write("not an image", to: "notes.txt")
        try folder.write("a,b", to: "manifest.csv")
        try folder.write("not an image", to: "LIES.JPEG")
        let outcome = try await photoValidator(["validate", folder.url.path, "--format", "jsonl"])
        #expect(outcome.status == 1)
        let records = try jsonLines(outcome.standardOutput)
        let byName = Dictionary(uniqueKeysWithValues: records.map { (URL(fileURLWithPath: $0["path"] as! String).lastPathComponent, $0) })
        #expect(byName.keys.sorted() == ["LIES.JPEG", "coffee.png", "cups.jpg"])
        #expect(byName["LIES.JPEG"]?["failures"] as? [String] == ["invalid_image"])
        #expect(outcome.standardError.contains("3 photos: 1 passed, 2 failed"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("; 2 skipped (not images)"), "\(outcome.standardError)")
        #expect(byName["coffee.png"]?["failures"] as? [String] == ["low_resolution"])
        #expect(outcome.standardError.contains("invalid_image 1"))
        #expect(outcome.standardError.contains("low_resolution 1"))
    }

    @Test("csv has a header and one row per photo with the same columns")
    func csv() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "cups.jpg")
        try folder.copy("photos/small-coffee.png", to: "coffee.png")
        let outcome = try await photoValidator(["validate", folder.url.path, "--format", "csv", "--type", "inspiration"])
        #expect(outcome.status == 0)
        let table = CSVTable(text: outcome.standardOutput)
        #expect(table.header == ValidationRecord.csvHeader)
        #expect(table.rows.count == 2)
        #expect(table.rows.allSatisfy { $0.count == ValidationRecord.csvHeader.count && $0["photo_type"] == "inspiration" })
        #expect(table.rows.map { $0["passed"] } == ["true", "true"])
        // The exposure check's figures, for a photo that decoded: percentiles 0 to 255, a share 0 to 1.
        for row in table.rows {
            let p10 = try #require(row["exposure_p10"].flatMap { Int($0) }), p90 = try #require(row["exposure_p90"].flatMap { Int($0) })
            let clipped = try #require(row["exposure_clipped_share"].flatMap { Double($0) })
            #expect(0 <= p10 && p10 <= p90 && p90 <= 255 && (0...1).contains(clipped), "\(row)")
        }
    }

    @Test("symlink loops and missing paths are reported, never fatal, and exit 2")
    func problemsAreReported() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "tree/cups.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("tree/loop").path, withDestinationPath: folder.url.appendingPathComponent("tree").path)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("tree/dangling.jpg").path, withDestinationPath: "/nonexistent/photo.jpg")
        let outcome = try await photoValidator(["validate", folder.url.appendingPathComponent("tree").path, folder.url.appendingPathComponent("missing").path, "--format", "jsonl"])
        #expect(outcome.status == 2)
        #expect(try jsonLines(outcome.standardOutput).count == 1)
        #expect(outcome.standardError.contains("symbolic link loop"))
        #expect(outcome.standardError.contains("broken symbolic link"))
        #expect(outcome.standardError.contains("no such file or folder"))
    }

    @Test("usage errors exit 2 with a message", arguments: [["validate"], ["validate", ".", "--shard", "3/2"], ["validate", ".", "--type", "kitchen"], ["validate", ".", "--analysis-size", "tiny"]])
    func usageErrors(arguments: [String]) async throws {
        let outcome = try await photoValidator(arguments)
        #expect(outcome.status == 2, "status \(outcome.status)")
        #expect(!outcome.standardError.isEmpty)
    }

    @Test("shards are disjoint and together cover every file once")
    func sharding() async throws {
        let folder = try ScratchFolder()
        let names = ["cups.jpg", "outdoor-path.jpg", "small-coffee.png", "small-cat.png", "grass-1280x1024.jpg", "small-person.png", "small-indoor-lab.jpg"]
        for (index, name) in names.enumerated() {
            try folder.copy("photos/\(name)", to: "d\(index % 3)/\(name)")
        }
        var seen: [String] = []
        for shard in 1...3 {
            let outcome = try await photoValidator(["validate", folder.url.path, "--format", "jsonl", "--shard", "\(shard)/3"])
            seen += try jsonLines(outcome.standardOutput).map { $0["path"] as! String }
        }
        #expect(seen.count == names.count)
        #expect(Set(seen).count == names.count)
    }

    @Test("shards of a tree with duplicates in its folders find the duplicates one run finds; --duplicates run refuses --shard")
    func shardsFindDuplicates() async throws {
        let folder = try ScratchFolder()
        for index in 0..<6 {
            try folder.copy("photos/cups.jpg", to: "p\(index)/a.jpg")
            try folder.copy("photos/cups.jpg", to: "p\(index)/b.jpg")
            try folder.copy("photos/outdoor-path.jpg", to: "p\(index)/c.jpg")
        }
        let single = try await photoValidator(["validate", folder.url.path, "--format", "jsonl"])
        var sharded: [[String: Any]] = []
        for shard in 1...3 {
            sharded += try jsonLines(try await photoValidator(["validate", folder.url.path, "--format", "jsonl", "--shard", "\(shard)/3"]).standardOutput)
        }
        let duplicates = { (records: [[String: Any]]) in records.filter { ($0["failures"] as? [String])?.contains("duplicate_photo") == true }.count }
        #expect(duplicates(try jsonLines(single.standardOutput)) == 6)
        #expect(sharded.count == 18)
        #expect(duplicates(sharded) == 6)
        let refused = try await photoValidator(["validate", folder.url.path, "--duplicates", "run", "--shard", "1/3"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("--duplicates folder"))
    }
}

@Suite("Shard selection", .integration, .timeLimit(.minutes(10)))
struct ShardTests {
    @Test("parses K/N and rejects nonsense")
    func parsing() {
        #expect(Shard(argument: "2/5") == Shard(index: 2, count: 5))
        #expect(Shard(argument: "0/5") == nil)
        #expect(Shard(argument: "6/5") == nil)
        #expect(Shard(argument: "x") == nil)
    }

    @Test("with whole folders, every photo of a folder is in the same part, and the parts still spread the folders")
    func wholeFolders() {
        let folders = (0..<400).map { "project-\($0)" }
        for folder in folders.prefix(20) {
            let parts = ["a.jpg", "b.jpg", "sub/c.jpg"].map { name in
                (1...4).filter { Shard(index: $0, count: 4).contains(relativePath: "\(folder)/\(name)", wholeFolders: true) }
            }
            #expect(parts[0].count == 1 && parts[0] == parts[1], "\(folder)")
        }
        let counts = (1...4).map { index in folders.filter { Shard(index: index, count: 4).contains(relativePath: "\($0)/a.jpg", wholeFolders: true) }.count }
        #expect(counts.reduce(0, +) == 400)
        #expect(counts.allSatisfy { $0 > 60 })
    }

    @Test("the split is a stable function of the path")
    func stable() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c: a fixed value, the same on every machine.
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        let paths = (0..<1000).map { "folder/photo-\($0).jpg" }
        let counts = (1...4).map { index in paths.filter { Shard(index: index, count: 4).contains(relativePath: $0) }.count }
        #expect(counts.reduce(0, +) == 1000)
        #expect(counts.allSatisfy { $0 > 150 })
    }
}

@Suite("photo-validator bench", .integration, .timeLimit(.minutes(10)))
struct BenchCommandTests {
    @Test("prints per-stage medians and p90s as JSON, the decoder, and for a JPEG the luma floor at the analysis DCT scale")
    func benchJSON() async throws {
        let outcome = try await photoValidator([
            "bench", Fixtures.testdataFile("photos/cups.jpg").path, Fixtures.testdataFile("variants/same-room.heic").path, "--iterations", "2",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let photos = try #require(report["photos"] as? [[String: Any]])
        try #require(photos.count == 2)
        let jpeg = try #require(photos[0]["stages_ms"] as? [String: [String: Double]])
        #expect(jpeg.keys.sorted() == ["blur", "cost_caps", "declared_size", "decode", "exposure", "fingerprint", "header", "jpeg_luma_floor", "luma", "total"])
        // The scans on the bytes alone are a small part of the header's time.
        #expect(jpeg["cost_caps"]!["median"]! < jpeg["total"]!["median"]!)
        #expect(jpeg["total"]!["median"]! > 0 && jpeg["total"]!["p90"]! >= jpeg["total"]!["median"]!)
        #expect(jpeg["jpeg_luma_floor"]!["median"]! > 0)
        #expect(photos[0]["decoder"] as? String == "libjpeg")
        let heic = try #require(photos[1]["stages_ms"] as? [String: [String: Double]])
        #expect(heic.keys.sorted() == ["blur", "cost_caps", "declared_size", "decode", "exposure", "fingerprint", "header", "luma", "total"])
        #expect(photos[1]["decoder"] as? String == "ffmpeg-hevc")
        #expect(report["iterations"] as? Int == 2)
    }
}
