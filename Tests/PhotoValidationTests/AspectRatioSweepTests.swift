import Foundation
import LumaAnalysis
import PhotoChecks
import TestFixtures
import Testing
@testable import PhotoValidation

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// Issue 53, finding 1: every valid image of any aspect ratio gets a verdict and a fingerprint of
/// bounded size. Pillow (and pillow-heif for HEIC) writes a textured picture at ratios from 1:1 to
/// 1:65500, both ways round, in every format, each as large as the format allows (WebP: 16383 a
/// side; HEIC: to 1:512 and 1:2000, as far as one HEVC picture and x265 go), and each is validated in-process with the
/// default settings through the real decoders.
@Suite("Aspect ratios from 1:1 to 1:65500 in every format", .integration,
       .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow and pillow-heif (scripts/setup --test)"),
       .timeLimit(.minutes(20)))
struct AspectRatioSweepTests {
    /// Short and long sides of the sweep: ratios 1:1, 1:4, 1:8, 1:32, 1:100, 1:410, 1:1000, 1:4094,
    /// 1:16375 and 1:65500 (the long side capped at the format's largest).
    static let shapes: [(short: Int, long: Int)] = [
        (1024, 1024), (512, 2048), (400, 3200), (200, 6400), (100, 10000), (40, 16380), (20, 20000), (16, 65500), (4, 65500), (1, 65500),
    ]

    /// The shapes for HEIC: one HEVC picture is at most 16888 px a side (a longer HEIC is a grid of
    /// tiles, which pillow-heif does not write), and x265 refuses a short side under 32 with a long
    /// side of many thousands, so the narrowest strips are 32 px wide there, or 2000 px long.
    static let heicShapes: [(short: Int, long: Int)] = [
        (1024, 1024), (512, 2048), (400, 3200), (200, 6400), (100, 10000), (40, 16380), (32, 16383), (16, 2000), (4, 2000), (1, 2000),
    ]

    /// Writes every shape in both orientations as `format` into `folder` and returns the files
    /// written with their sides; a shape the encoder refuses is left out and named on stderr.
    static func write(format: String, largestSide: Int, into folder: URL) async throws -> [(url: URL, width: Int, height: Int)] {
        var planned: [(url: URL, width: Int, height: Int)] = []
        for shape in format == "heic" ? heicShapes : shapes {
            let long = min(shape.long, largestSide)
            for (width, height) in Set([SidePair(shape.short, long), SidePair(long, shape.short)]).map({ ($0.first, $0.second) }) {
                planned.append((folder.appendingPathComponent("\(width)x\(height).\(format)"), width, height))
            }
        }
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            if sys.argv[1] == "heic":
                import pillow_heif
                pillow_heif.register_heif_opener()
            arguments = sys.argv[2:]
            for path, width, height in zip(arguments[0::3], arguments[1::3], arguments[2::3]):
                width, height = int(width), int(height)
                y, x = np.mgrid[0:height, 0:width]
                grey = ((x * 37) ^ (y * 11) ^ ((x * y) >> 3)) & 255
                rgb = np.stack([grey, (grey + 40) & 255, (grey * 3) & 255], axis=-1).astype(np.uint8)
                try:
                    Image.fromarray(rgb, "RGB").save(path, quality=90)
                except Exception as error:
                    print(f"{path}: {error}", file=sys.stderr)
            """
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script, format] + planned.flatMap { [$0.url.path, String($0.width), String($0.height)] })
        #expect(outcome.status == 0, "\(outcome.standardError)")
        if !outcome.standardError.isEmpty { print("the encoder refused: \(outcome.standardError)") }
        return planned.filter { FileManager.default.fileExists(atPath: $0.url.path) }
    }

    @Test("every shape in every format gets a verdict, a fingerprint within the bound, and a bounded fingerprint stage",
          arguments: [("jpg", 65500), ("png", 65500), ("webp", 16383), ("heic", 16383)])
    func everyShapeGetsAVerdict(format: String, largestSide: Int) async throws {
        try #require(pythonPresent, ".venv with Pillow is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("ratio-sweep-\(format)"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try await Self.write(format: format, largestSide: largestSide, into: folder)
        // Every shape in both orientations, the square once.
        #expect(files.count == 2 * Self.shapes.count - 1, "\(files.count) \(format) files written")
        let validator = try PhotoValidator(settings: ValidationSettings())
        var largestFingerprint = 0, slowest = 0.0
        for file in files {
            let data = try Data(contentsOf: file.url)
            let output = try await offloaded { data.withUnsafeBytes { validator.validate($0, as: .inspiration) } }
            let details = output.details
            #expect(!output.failures.contains(.invalidImage) && details.error == nil,
                    "\(file.url.lastPathComponent): \(output.failures) \(details.error ?? "") \(details.errorDetail ?? "")")
            #expect(details.width == file.width && details.height == file.height, "\(file.url.lastPathComponent)")
            let text = try #require(details.fingerprint, "\(file.url.lastPathComponent) has no fingerprint")
            #expect(text.utf8.count <= PhotoFingerprint.maximumEncodedBytes, "\(file.url.lastPathComponent): \(text.utf8.count) bytes")
            let fingerprint = try #require(PhotoFingerprint(base64: text), "\(file.url.lastPathComponent)'s fingerprint does not parse")
            largestFingerprint = max(largestFingerprint, text.utf8.count)
            slowest = max(slowest, details.timingsMs.fingerprint)
            let verdict = output.passed ? "passed" : output.failures.map(\.rawValue).joined(separator: ",")
            let analysis = "\(details.analysisWidth ?? 0)x\(details.analysisHeight ?? 0)"
            let parts = "\(fingerprint.features.count) keypoints, thumbnail \(fingerprint.thumbnail.width)x\(fingerprint.thumbnail.height)"
            let stage = String(format: "%.1f", details.timingsMs.fingerprint), total = String(format: "%.0f", details.timingsMs.total)
            print("\(format) \(file.width)x\(file.height): \(verdict), analysis \(analysis), fingerprint \(text.utf8.count) B (\(parts)),"
                  + " fingerprint stage \(stage) ms, total \(total) ms")
        }
        print("\(format): \(files.count) shapes, largest fingerprint \(largestFingerprint) B (bound \(PhotoFingerprint.maximumEncodedBytes)),"
              + " slowest fingerprint stage \(String(format: "%.1f", slowest)) ms")
    }
}

/// Two sides, hashable, so a square shape is written once.
private struct SidePair: Hashable {
    let first: Int
    let second: Int
    init(_ first: Int, _ second: Int) { (self.first, self.second) = (first, second) }
}
