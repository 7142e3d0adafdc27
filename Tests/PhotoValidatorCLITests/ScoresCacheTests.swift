import Foundation
import PhotoChecks
import PhotoValidation
import TestFixtures
import Testing
@testable import PhotoValidatorCLI

/// The answer without its timings, which differ between any two runs, and without libvips' own
/// words on a failure when another test was decoding in this process at the same time (its error
/// buffer is process-wide, so the validator withholds them: `ImageDecoder`).
private func untimed(_ output: ValidatePhotoOutput) -> ValidatePhotoOutput {
    var details = output.details
    details.timingsMs = StageTimings()
    if let detail = details.errorDetail, let colon = detail.firstIndex(of: ":") {
        details.errorDetail = String(detail[..<colon])
    }
    return ValidatePhotoOutput(failures: output.failures, photoType: details.photoType, minimumShortSide: details.minimumShortSide, details: details)
}

/// The photos of `testdata/photos` and `testdata/variants` with their bytes.
private func testPhotos() throws -> [(name: String, bytes: Data)] {
    try ["photos", "variants"].flatMap { folder in
        let url = Fixtures.testdata.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            .filter { ["jpg", "png", "webp", "heic"].contains(($0 as NSString).pathExtension) && !$0.hasPrefix("bomb") }
            .map { ("\(folder)/\($0)", try Data(contentsOf: url.appendingPathComponent($0))) }
    }
}

@Suite("The scores cache: re-runs judge kept measurements without decoding", .timeLimit(.minutes(10)))
struct ScoresCacheTests {
    @Test("a re-run with other thresholds reads its answers from the cache, and they are a fresh run's, for both photo types",
          arguments: [PhotoType.room, .inspiration])
    func rerunMatchesFreshRun(photoType: PhotoType) throws {
        let folder = try ScratchFolder()
        let photos = try testPhotos()
        let cache = try ScoresCache(path: folder.url.appendingPathComponent("scores.sqlite").path, key: .random())
        let first = try PhotoValidator(settings: ValidationSettings())
        for photo in photos {
            let cached = photo.bytes.withUnsafeBytes { cache.validate($0, as: photoType, with: first) }
            let fresh = photo.bytes.withUnsafeBytes { first.validate($0, as: photoType) }
            #expect(untimed(cached) == untimed(fresh), "\(photo.name), measured")
        }
        #expect(cache.counts == .init(read: 0, measured: photos.count, unwritten: 0))

        // Unchanged settings: every photo read back, the same answers.
        for photo in photos {
            let cached = photo.bytes.withUnsafeBytes { cache.validate($0, as: photoType, with: first) }
            let fresh = photo.bytes.withUnsafeBytes { first.validate($0, as: photoType) }
            #expect(untimed(cached) == untimed(fresh), "\(photo.name), read back")
        }
        #expect(cache.counts == .init(read: photos.count, measured: photos.count, unwritten: 0))

        // A lower blur threshold and other resolution and exposure rules: still no decode.
        var looser = ValidationSettings()
        looser.roomBlurThreshold = 12
        looser.inspirationBlurThreshold = 12
        looser.roomMinimumShortSide = 600
        looser.inspirationMinimumShortSide = 200
        looser.exposure.enabled = false
        let second = try PhotoValidator(settings: looser)
        for photo in photos {
            let cached = photo.bytes.withUnsafeBytes { cache.validate($0, as: photoType, with: second) }
            let fresh = photo.bytes.withUnsafeBytes { second.validate($0, as: photoType) }
            #expect(untimed(cached) == untimed(fresh), "\(photo.name), lower threshold")
        }
        #expect(cache.counts == .init(read: 2 * photos.count, measured: photos.count, unwritten: 0))

        // A higher one may need a comparison or a second decode the first run never made: those
        // photos are decoded again, and every answer is still a fresh run's.
        var stricter = ValidationSettings()
        stricter.roomBlurThreshold = 40
        stricter.inspirationBlurThreshold = 40
        let third = try PhotoValidator(settings: stricter)
        for photo in photos {
            let cached = photo.bytes.withUnsafeBytes { cache.validate($0, as: photoType, with: third) }
            let fresh = photo.bytes.withUnsafeBytes { third.validate($0, as: photoType) }
            #expect(untimed(cached) == untimed(fresh), "\(photo.name), higher threshold")
        }
        #expect(cache.counts.read + cache.counts.measured == 4 * photos.count)
    }

    @Test("a kept photo is judged from its kept measurements, not decoded; other analysis settings are another key")
    func readsInsteadOfDecoding() throws {
        let folder = try ScratchFolder()
        let bytes = try Data(contentsOf: Fixtures.testdataFile("photos/blur-real-text-defocus.jpg"))
        let cache = try ScoresCache(path: folder.url.appendingPathComponent("scores.sqlite").path, key: .random())
        let validator = try PhotoValidator(settings: ValidationSettings())
        let measured = bytes.withUnsafeBytes { cache.validate($0, as: .room, with: validator) }
        #expect(measured.failures.contains(.blurry))

        // Doctor the kept figures: only an answer read from the cache can be sharp now.
        let hash = bytes.withUnsafeBytes { ScoresCache.contentHash($0) }
        let key = validator.settings.measurementKey(for: .room)
        var kept = try #require(cache.measurements(hash: hash, settings: key))
        kept.first?.analysisScore = 99
        kept.first?.finerScore = nil
        kept.second = nil
        #expect(cache.store(kept, hash: hash, settings: key))
        let read = bytes.withUnsafeBytes { cache.validate($0, as: .room, with: validator) }
        #expect(read.details.blurScore == 99)
        #expect(!read.failures.contains(.blurry))
        #expect(cache.counts == .init(read: 1, measured: 1, unwritten: 0))

        var smaller = ValidationSettings()
        smaller.analysisScale = .shortestSide(512)
        let other = try PhotoValidator(settings: smaller)
        #expect(smaller.measurementKey(for: .room) != key)
        _ = bytes.withUnsafeBytes { cache.validate($0, as: .room, with: other) }
        #expect(cache.counts == .init(read: 1, measured: 2, unwritten: 0))
    }

    @Test("a cache that cannot be opened is scores_cache_unavailable, saying what to do")
    func unavailable() throws {
        #expect {
            _ = try ScoresCache(path: "/proc/photo-validator-no-such-folder/scores.sqlite", key: .random())
        } throws: { error in
            let described = "\(error)"
            return described.hasPrefix("scores_cache_unavailable: ") && described.contains("--scores-cache another path")
        }
    }
}

@Suite("validate --scores-cache, end to end (sandboxed decode workers)", .integration, .timeLimit(.minutes(10)))
struct ScoresCacheCommandTests {
    @Test("a second run with another blur threshold reads every photo from the cache and prints a fresh run's records")
    func secondRunReads() async throws {
        let folder = try ScratchFolder()
        for name in ["cups.jpg", "outdoor-path.jpg", "blur-real-text-defocus.jpg", "small-cat.png", "screenshot-map.png"] {
            try folder.copy("photos/\(name)", to: "photos/\(name)")
        }
        let photos = folder.url.appendingPathComponent("photos").path
        let cache = folder.url.appendingPathComponent("scores.sqlite").path
        func records(_ text: String) throws -> [String] {
            try jsonLines(text).map { record in
                var record = record
                var details = try #require(record["details"] as? [String: Any])
                details["timings_ms"] = nil
                record["details"] = details
                return String(decoding: try JSONSerialization.data(withJSONObject: record, options: .sortedKeys), as: UTF8.self)
            }
        }
        let key = folder.url.appendingPathComponent("state/scores-cache.key").path
        let first = try await photoValidator(["validate", photos, "--format", "jsonl", "--scores-cache", cache, "--scores-cache-key-file", key, "--room-blur-threshold", "24"])
        #expect(first.standardError.contains("scores cache \(cache): 0 read, 5 measured"), "\(first.standardError)")
        let second = try await photoValidator(["validate", photos, "--format", "jsonl", "--scores-cache", cache, "--scores-cache-key-file", key, "--room-blur-threshold", "20"])
        #expect(second.standardError.contains("scores cache \(cache): 5 read, 0 measured"), "\(second.standardError)")
        let fresh = try await photoValidator(["validate", photos, "--format", "jsonl", "--room-blur-threshold", "20"])
        #expect(try records(second.standardOutput) == records(fresh.standardOutput))
        #expect(second.status == fresh.status)
    }
}
