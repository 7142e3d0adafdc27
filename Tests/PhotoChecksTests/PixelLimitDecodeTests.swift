import Foundation
import ImageCodecs
@testable import PhotoChecks
import PhotoFormat
@testable import PhotoValidation
import TestFixtures
import Testing

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// Issue 53, finding 10: large photos the pixel limit admits decode under the default budget, in
/// this process and in a sandboxed decode worker (`validate`'s default), where libvips could not
/// write the temporary file it put a canvas over 100 MB in. The WebPs are the sizes the conformance
/// run found refused (libwebp's own 11158x2156 test photo, an 8000x6000 photo: libvips held a
/// WebP's canvas about twice), and every format at 100 MP in the shapes the format allows (a WebP
/// side is at most 16383 px): lossy WebP, and lossless with alpha (the most demanding decode),
/// decoded by libwebp into one buffer, PNG in strips, JPEG at its DCT scale. (HEIC is left out: one
/// HEVC picture cannot hold 100 MP and Pillow writes no grids.) A WebP's process also stays under
/// its estimate.
@Suite("Large photos within the pixel limit decode under the default budget", .integration,
       .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow (scripts/setup --test)"),
       .timeLimit(.minutes(10)))
struct PixelLimitDecodeTests {
    @Test("each gets a measured verdict in this process and in a decode worker, not memory_limit_exceeded",
          arguments: [("webp", 11158, 2156), ("webp", 8000, 6000), ("jpg", 10000, 10000), ("webp", 16383, 6103), ("lossless-alpha.webp", 10000, 10000),
                      ("png", 16383, 6103), ("png", 65500, 1526), ("jpg", 65500, 1526)])
    func decodesUnderDefaults(format: String, width: Int, height: Int) async throws {
        try #require(pythonPresent, ".venv with Pillow is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("pixel-limit-\(format)-\(width)x\(height)"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("large.\(format)")
        // A smooth picture with fine texture in bands: quick to write and to compress.
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            lossless = path.endswith("lossless-alpha.webp")
            x = np.arange(width, dtype=np.uint32)[None, :]
            rows = []
            for top in range(0, height, 512):
                y = np.arange(top, min(height, top + 512), dtype=np.uint32)[:, None]
                grey = ((x * 255 // width + y * 255 // height) // 2 + ((x ^ y) & 15)).astype(np.uint8)
                rows.append(grey)
            grey = np.concatenate(rows)
            image = Image.fromarray(grey, "L").convert("RGB")
            if lossless:
                image.putalpha(230)
            image.save(path, quality=80, method=0, lossless=lossless, compress_level=1)
            """
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script, file.path, String(width), String(height)])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let settings = ValidationSettings()
        let validator = try PhotoValidator(settings: settings)
        let data = try Data(contentsOf: file)
        let output = try await offloaded { data.withUnsafeBytes { validator.validate($0, as: .room) } }
        print("\(format) \(width)x\(height) (\(data.count) bytes) under the default budget of \(settings.decodeMemoryBudget >> 20) MiB:"
              + " \(output.failures.map(\.rawValue)) \(output.details.error ?? "measured"), total \(String(format: "%.0f", output.details.timingsMs.total)) ms")
        #expect(output.details.error == nil, "\(output.details.errorDetail ?? "")")
        #expect(!output.failures.contains(.invalidImage))
        #expect(output.details.width == width && output.details.height == height && output.details.blurScore != nil)
        #expect(validator.memoryBudget.held == 0)
        let isolated = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["validate", "--format", "jsonl", "--type", "room", file.path])
        let record = try #require(isolated.standardOutput.split(separator: "\n").first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] },
                                  "validate printed no record: \(isolated.standardError)")
        let details = try #require(record["details"] as? [String: Any])
        print("\(format) \(width)x\(height) in a decode worker: \(record["failures"] ?? "") \(details["error"] ?? "measured") \(details["error_detail"] ?? "")")
        #expect(details["error"] == nil, "in a decode worker: \(details["error_detail"] ?? "")")
        #expect(details["blur_score"] != nil)
        if format.hasSuffix("webp") {
            try await staysUnderEstimate(file, settings: settings, folder: folder)
        }
    }

    /// The peak resident memory `validate` adds decoding `file` in its own process (over the same
    /// command on a 64x64 picture of the same kind) is within what the decode reserves for it:
    /// the plan's estimate and the analysis'.
    private func staysUnderEstimate(_ file: URL, settings: ValidationSettings, folder: URL) async throws {
        let data = try Data(contentsOf: file)
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        let header = image.header
        let estimate = InProcessChecks.memoryNeed(image.plan(targetShortSide: settings.analysisScale.targetShortestSide), header: header, scale: settings.analysisScale)
        let small = folder.appendingPathComponent("small-" + file.lastPathComponent)
        let shrink = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1])
            image.resize((64, 64)).save(sys.argv[2], quality=80, lossless=sys.argv[2].endswith("lossless-alpha.webp"))
            """
        let written = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", shrink, file.path, small.path])
        try #require(written.status == 0, "\(written.standardError)")
        // ru_maxrss of the one child, in KiB.
        let peak = """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        func peakKiB(_ url: URL) async throws -> Int {
            let arguments = ["-c", peak, ProcessRunner.photoValidatorExecutable.path, "validate", "--decode-isolation", "none", "--jobs", "1", "--duplicates-check", "false", url.path]
            let outcome = try await ProcessRunner.run(URL(fileURLWithPath: python), arguments)
            return try #require(Int(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "\(outcome.standardError)")
        }
        let added = (try await peakKiB(file) - (try await peakKiB(small))) << 10
        print("\(file.lastPathComponent) \(header.storedWidth)x\(header.storedHeight): the decode added \(added >> 20) MiB, estimated \(estimate >> 20) MiB")
        #expect(added <= estimate, "\(header.storedWidth)x\(header.storedHeight): \(added >> 20) MiB over an estimate of \(estimate >> 20) MiB")
        #expect(added >= estimate / 2, "the estimate is no longer near what the decode holds: \(added >> 20) of \(estimate >> 20) MiB")
    }
}
