import Foundation
import GRDB
import PhotoValidation
import TestFixtures
import Testing
@testable import PhotoValidatorCLI

/// The answer without its timings, which differ between any two runs.
private func untimed(_ output: ValidatePhotoOutput) -> ValidatePhotoOutput {
    var details = output.details
    details.timingsMs = StageTimings()
    return ValidatePhotoOutput(failures: output.failures, photoType: details.photoType, minimumShortSide: details.minimumShortSide, details: details)
}

/// A 1600x1200 greyscale PNG of fine detail kept under luma 32: sharp, large enough, and too dark.
private let darkPhoto = Data(SyntheticPNG.grey(width: 1600, height: 1200) { x, y in
    UInt8(truncatingIfNeeded: (x &* 7 &+ y &* 3) ^ (x / 16 &+ y / 16) &* 37) / 8
})

/// A fingerprint built to be costly to compare: 1,024 identical keypoints (the most a fingerprint
/// may carry) and a small thumbnail, about 49 KB of base64, under the field's bound.
private let costlyFingerprint: String = {
    var bytes: [UInt8] = [3] + [UInt8](repeating: 0x5A, count: 32)
    // As many keypoints as a fingerprint may carry (128), all alike: the costliest comparison parsing allows.
    let features = [0x4C, 0x46, 2, 0, 0x80, 0x00] + [UInt8](repeating: 0x11, count: 128 * 36)
    withUnsafeBytes(of: UInt32(features.count).littleEndian) { bytes.append(contentsOf: $0) }
    bytes += features
    // A 96x128 window of coded detail, the most cells a thumbnail keeps.
    bytes += [0x54, 0x48, 3, 0, 0, 0, 0, 0, 0, 96, 0, 128, 0] + [UInt8](repeating: 0x1B, count: 96 * 128 / 4)
    return Data(bytes).base64EncodedString()
}()

/// A cache in a scratch folder, a validator with the default settings, and the photo's row keys.
private struct Bench {
    let folder: ScratchFolder
    let cache: ScoresCache
    let validator: PhotoValidator

    init() throws {
        folder = try ScratchFolder()
        cache = try ScoresCache(path: folder.url.appendingPathComponent("scores.sqlite").path, key: .random())
        validator = try PhotoValidator(settings: ValidationSettings())
    }

    /// The row keys of `bytes` as a room photo.
    func keys(_ bytes: Data) -> (hash: String, settings: String) {
        (bytes.withUnsafeBytes { ScoresCache.contentHash($0) }, validator.settings.measurementKey(for: .room))
    }

    /// `bytes` validated through the cache as a room photo.
    func validate(_ bytes: Data) -> ValidatePhotoOutput {
        bytes.withUnsafeBytes { cache.validate($0, as: .room, with: validator) }
    }

    /// `bytes` validated without the cache.
    func fresh(_ bytes: Data) -> ValidatePhotoOutput {
        bytes.withUnsafeBytes { validator.validate($0, as: .room) }
    }

    /// Replaces the stored measurements of `bytes` as someone who can write the file but does
    /// not hold the key would: the row's checksum is left as it was.
    func overwriteMeasurements(of bytes: Data, with value: some DatabaseValueConvertible) throws {
        let (hash, settings) = keys(bytes)
        try cache.database.write { db in
            try db.execute(sql: "UPDATE measurement SET measurements = ? WHERE content_sha256 = ? AND settings = ?", arguments: [value, hash, settings])
            #expect(db.changesCount == 1)
        }
    }

    /// The stored measurements of `bytes` edited by `edit`, as JSON: what an edit of the file
    /// writes. The edit must clear `failure` from the verdict if the row were trusted.
    func edited(_ bytes: Data, clearing failure: FailureCode? = nil, _ edit: (inout PhotoMeasurements) -> Void) throws -> Data {
        let (hash, settings) = keys(bytes)
        var kept = try #require(cache.measurements(hash: hash, settings: settings))
        edit(&kept)
        if let failure {
            let trusted = try #require(validator.judge(kept, as: .room))
            #expect(!trusted.failures.contains(failure), "read as it stands, the edited row would clear \(failure)")
        }
        return try JSONEncoder().encode(kept)
    }
}

@Suite("The scores cache verifies each row before reading it", .timeLimit(.minutes(10)))
struct ScoresCacheVerificationTests {
    @Test("an intact row is read, not measured, and verifies to the fresh answer")
    func intactRowIsRead() throws {
        let bench = try Bench()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
        _ = bench.validate(bytes)
        let read = bench.validate(bytes)
        #expect(untimed(read) == untimed(bench.fresh(bytes)))
        #expect(bench.cache.counts == .init(read: 1, measured: 1, unwritten: 0, rejected: 0))
        #expect(bench.cache.summaryLine.hasSuffix(": 1 read, 1 measured"))
    }

    /// An edit of the stored figures that would turn a failing photo into a pass.
    struct Edit: Sendable, CustomTestStringConvertible {
        let name: String
        let photo: @Sendable () throws -> Data
        let failure: FailureCode
        let apply: @Sendable (inout PhotoMeasurements) -> Void
        var testDescription: String { name }
    }

    static let edits: [Edit] = [
        Edit(name: "blur score raised", photo: { try Data(contentsOf: Fixtures.testdataFile("photos/blur-real-text-defocus.jpg")) }, failure: .blurry) { kept in
            kept.first?.analysisScore = 99
            kept.first?.finerScore = nil
            kept.first?.compared = true
            kept.second = nil
        },
        Edit(name: "dimensions changed", photo: { try Data(contentsOf: Fixtures.testdataFile("photos/small-coffee.png")) }, failure: .lowResolution) { kept in
            kept.width = 4000
            kept.height = 3000
            kept.shortestSide = 3000
        },
        Edit(name: "exposure brightened", photo: { darkPhoto }, failure: .tooDark) { kept in
            kept.first?.exposure.p90 = 180
            kept.first?.exposure.mean = 120
            kept.first?.exposure.shadowShare = 0
        },
    ]

    @Test("an edited row fails verification: the photo is measured again, the verdict is the true one, and the row is replaced", arguments: edits)
    func editedRowIsMeasured(edit: Edit) throws {
        let bench = try Bench()
        let bytes = try edit.photo()
        let truth = bench.fresh(bytes)
        try #require(truth.failures.contains(edit.failure), "\(truth.failures)")
        _ = bench.validate(bytes)
        try bench.overwriteMeasurements(of: bytes, with: bench.edited(bytes, clearing: edit.failure, edit.apply))

        let answer = bench.validate(bytes)
        #expect(untimed(answer) == untimed(truth))
        #expect(bench.cache.counts == .init(read: 0, measured: 2, unwritten: 0, rejected: 1))
        #expect(bench.cache.summaryLine.contains("2 measured (1 re-measured: rows failed verification)"), "\(bench.cache.summaryLine)")

        // The row was replaced by the true measurements: the next run reads them.
        #expect(untimed(bench.validate(bytes)) == untimed(truth))
        #expect(bench.cache.counts.read == 1)
    }

    @Test("a crafted fingerprint, costly to compare, is not read: the photo's own is measured")
    func craftedFingerprint() throws {
        let bench = try Bench()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
        let truth = bench.fresh(bytes)
        _ = bench.validate(bytes)
        #expect(costlyFingerprint.utf8.count <= ScoresCache.maximumFingerprintCharacters, "within the bound: only the checksum stops it")
        let crafted = try bench.edited(bytes) { kept in kept.first?.fingerprint = costlyFingerprint }
        try bench.overwriteMeasurements(of: bytes, with: crafted)

        let answer = bench.validate(bytes)
        #expect(answer.details.fingerprint == truth.details.fingerprint)
        #expect(untimed(answer) == untimed(truth))
        #expect(bench.cache.counts.rejected == 1)
    }

    @Test("a signed row whose fingerprint is over its bound is not read (a key shared with another build)")
    func oversizedFingerprintSigned() throws {
        let bench = try Bench()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
        let (hash, settings) = bench.keys(bytes)
        _ = bench.validate(bytes)
        var kept = try #require(bench.cache.measurements(hash: hash, settings: settings))
        kept.first?.fingerprint = String(repeating: "A", count: ScoresCache.maximumFingerprintCharacters + 4)
        #expect(bench.cache.store(kept, hash: hash, settings: settings), "signed with the run's own key")

        #expect(bench.cache.lookup(hash: hash, settings: settings) == .rejected)
        #expect(untimed(bench.validate(bytes)) == untimed(bench.fresh(bytes)))
        #expect(bench.cache.counts.rejected == 1)
    }

    @Test("a row over the size bound, as a BLOB or as TEXT, is not loaded: the photo is measured again", arguments: [true, false])
    func hugeRow(asBlob: Bool) throws {
        let bench = try Bench()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/blur-real-text-defocus.jpg"))
        let truth = bench.fresh(bytes)
        _ = bench.validate(bytes)
        let (hash, settings) = bench.keys(bytes)
        let size = ScoresCache.maximumMeasurementsBytes + 1
        try bench.cache.database.write { db in
            let value = asBlob ? "zeroblob(\(size))" : "CAST(zeroblob(\(size)) AS TEXT)"
            try db.execute(sql: "UPDATE measurement SET measurements = \(value) WHERE content_sha256 = ? AND settings = ?", arguments: [hash, settings])
        }
        #expect(bench.cache.lookup(hash: hash, settings: settings) == .rejected)
        #expect(untimed(bench.validate(bytes)) == untimed(truth))
        #expect(bench.cache.counts == .init(read: 0, measured: 2, unwritten: 0, rejected: 1))
        _ = bench.validate(bytes)
        #expect(bench.cache.counts.read == 1, "the replaced row is read")
    }

    @Test("a row whose checksum was removed or cut is measured again", arguments: ["x''", "zeroblob(31)", "'text'"])
    func missingChecksum(value: String) throws {
        let bench = try Bench()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/blur-real-text-defocus.jpg"))
        _ = bench.validate(bytes)
        let (hash, settings) = bench.keys(bytes)
        try bench.cache.database.write { db in
            try db.execute(sql: "UPDATE measurement SET checksum = \(value) WHERE content_sha256 = ? AND settings = ?", arguments: [hash, settings])
        }
        #expect(bench.cache.lookup(hash: hash, settings: settings) == .rejected)
        #expect(bench.validate(bytes).failures.contains(.blurry))
        #expect(bench.cache.counts.rejected == 1)
    }

    @Test("a row signed with another key is measured again")
    func otherKey() throws {
        let bench = try Bench()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
        _ = bench.validate(bytes)
        bench.cache.close()
        let other = try ScoresCache(path: bench.cache.path, key: .random())
        _ = bytes.withUnsafeBytes { other.validate($0, as: .room, with: bench.validator) }
        #expect(other.counts == .init(read: 0, measured: 1, unwritten: 0, rejected: 1))
    }

    @Test("a cache of an earlier build is migrated: its unsigned rows, edited or not, are dropped and their photos measured again")
    func migratesUnsignedRows() throws {
        let folder = try ScratchFolder()
        let path = folder.url.appendingPathComponent("old.sqlite").path
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/blur-real-text-defocus.jpg"))
        let validator = try PhotoValidator(settings: ValidationSettings())
        let hash = bytes.withUnsafeBytes { ScoresCache.contentHash($0) }
        let settings = validator.settings.measurementKey(for: .room)
        var doctored = try #require(bytes.withUnsafeBytes { validator.measure($0, as: .room) }.measurements)
        doctored.first?.analysisScore = 99
        doctored.first?.finerScore = nil
        doctored.first?.compared = true
        doctored.second = nil
        try #require(validator.judge(doctored, as: .room)?.failures.contains(.blurry) == false)
        // The earlier build's file: its one migration, and a TEXT row without a checksum.
        let old = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create measurement") { db in
            try db.execute(sql: """
                CREATE TABLE measurement (content_sha256 TEXT NOT NULL, settings TEXT NOT NULL, measurements TEXT NOT NULL,
                    measured_at DOUBLE NOT NULL, PRIMARY KEY (content_sha256, settings)) WITHOUT ROWID
                """)
        }
        try migrator.migrate(old)
        try old.write { db in
            try db.execute(sql: "INSERT INTO measurement VALUES (?, ?, ?, ?)",
                           arguments: [hash, settings, String(decoding: try JSONEncoder().encode(doctored), as: UTF8.self), 0])
        }
        try old.close()

        let cache = try ScoresCache(path: path, key: .random())
        #expect(cache.droppedUnsignedRows == 1)
        #expect(cache.lookup(hash: hash, settings: settings) == .missing)
        let answer = bytes.withUnsafeBytes { cache.validate($0, as: .room, with: validator) }
        #expect(answer.failures.contains(.blurry))
        #expect(cache.counts == .init(read: 0, measured: 1, unwritten: 0, rejected: 0))
        #expect(cache.summaryLine.hasSuffix("; 1 unsigned rows of an earlier build dropped (measured again)"), "\(cache.summaryLine)")
        _ = bytes.withUnsafeBytes { cache.validate($0, as: .room, with: validator) }
        #expect(cache.counts.read == 1, "the new row is signed and read")
        cache.close()
        #expect(try ScoresCache(path: path, key: cache.key).droppedUnsignedRows == 0, "migrated once")
    }
}

/// The key's bytes.
private func bytes(of key: ScoresCacheKey) -> [UInt8] {
    key.key.withUnsafeBytes { Array($0) }
}

@Suite("The scores cache's key file", .timeLimit(.minutes(2)))
struct ScoresCacheKeyTests {
    @Test("a missing key is created 0600 (its folder 0700) with 32 bytes, and read back the same")
    func createsAndReuses() throws {
        let folder = try ScratchFolder()
        let path = folder.url.appendingPathComponent("state/photo-validator/scores-cache.key").path
        let first = try ScoresCacheKey.loadOrCreate(at: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let second = try ScoresCacheKey.loadOrCreate(at: path)
        #expect(bytes(of: first) == bytes(of: second))
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["scores-cache.key"])
    }

    @Test("shards that start together share one key")
    func concurrentCreation() async throws {
        let folder = try ScratchFolder()
        let path = folder.url.appendingPathComponent("shared.key").path
        let keys = try await withThrowingTaskGroup(of: ScoresCacheKey.self) { group in
            for _ in 0..<8 { group.addTask { try ScoresCacheKey.loadOrCreate(at: path) } }
            return try await group.reduce(into: [ScoresCacheKey]()) { $0.append($1) }
        }
        #expect(keys.count == 8)
        #expect(keys.allSatisfy { bytes(of: $0) == bytes(of: keys[0]) })
    }

    @Test("a key others may read, or of the wrong size, is scores_cache_key_invalid, saying what to do")
    func refusesUnusableKeys() throws {
        let folder = try ScratchFolder()
        let exposed = folder.url.appendingPathComponent("exposed.key").path
        _ = try ScoresCacheKey.loadOrCreate(at: exposed)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: exposed)
        let short = folder.url.appendingPathComponent("short.key").path
        FileManager.default.createFile(atPath: short, contents: Data(repeating: 7, count: 16), attributes: [.posixPermissions: 0o600])
        for path in [exposed, short] {
            #expect {
                _ = try ScoresCacheKey.loadOrCreate(at: path)
            } throws: { error in
                let described = "\(error)"
                return (error as? ScoresCacheError)?.code == .keyInvalid && described.hasPrefix("scores_cache_key_invalid: ")
                    && described.contains("chmod 600")
            }
        }
    }

    @Test("the default key lives in XDG_STATE_HOME, else under HOME; with neither, the error names the setting")
    func defaultPath() {
        #expect(ScoresCacheKey.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/photo-validator/scores-cache.key")
        #expect(ScoresCacheKey.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/photo-validator/scores-cache.key")
        #expect(ScoresCacheKey.defaultPath(environment: [:]) == nil)
        #expect {
            _ = try ScoresCacheKey.resolve(keyFile: nil, environment: [:])
        } throws: { error in
            "\(error)".hasPrefix("scores_cache_key_unavailable: ") && "\(error)".contains("--scores-cache-key-file")
        }
    }
}
