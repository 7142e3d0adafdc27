import Foundation
@testable import ImageCodecs
import PhotoFormat
import TestFixtures
import Testing

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// Issue 53: a still WebP is decoded by libwebp into one buffer (`LibWebPDecoder`) instead of
/// libvips' copies of the canvas; the pixels handed out are libvips' own, byte for byte.
@Suite("libwebp decodes a still WebP into the pixels libvips decodes")
struct LibWebPDecodeTests {
    /// Every row `image` hands out with `plan`, and the geometry.
    private func pixels(of url: URL, libvips: Bool) throws -> (geometry: PixelGeometry?, bytes: [UInt8], decoder: DecodePlan.Decoder) {
        let data = try Data(contentsOf: url)
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        let plan = image.plan(targetShortSide: 1024, lumaPaths: !libvips)
        var geometry: PixelGeometry?
        var bytes: [UInt8] = []
        try image.decodeStrips(plan: plan, begin: { geometry = $0 }) { strip, _, count, stride in
            let rowBytes = geometry!.width * geometry!.bands
            for row in 0..<count {
                bytes.append(contentsOf: UnsafeBufferPointer(start: strip + row * stride, count: rowBytes))
            }
        }
        return (geometry, bytes, plan.decoder)
    }

    @Test("the repository's WebPs: libwebp's pixels are libvips' pixels", arguments: ["variants/same-room.webp", "variants/same-small.webp"])
    func repositoryFiles(file: String) throws {
        let url = Fixtures.testdataFile(file)
        let ours = try pixels(of: url, libvips: false)
        let reference = try pixels(of: url, libvips: true)
        #expect(ours.decoder == .libwebp && reference.decoder == .libvips)
        #expect(ours.geometry == reference.geometry)
        #expect(ours.bytes == reference.bytes, "\(file): the two decodes differ")
    }

    @Test("lossy, lossless, with and without alpha, odd sizes: the same pixels as libvips'",
          .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow (scripts/setup --test)"))
    func encodedKinds() async throws {
        try #require(pythonPresent, ".venv with Pillow is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("libwebp-kinds"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A textured picture with an alpha ramp, written in each kind; odd sides exercise the
        // chroma upsampling's last row and column.
        let script = """
            import sys
            import numpy as np
            from PIL import Image
            folder = sys.argv[1]
            for width, height in [(1, 1), (17, 9), (3, 1000), (641, 479)]:
                y, x = np.mgrid[0:height, 0:width]
                grey = ((x * 37) ^ (y * 11) ^ ((x * y) >> 3)) & 255
                rgb = np.stack([grey, (grey + 40) & 255, (grey * 3) & 255], axis=-1).astype(np.uint8)
                alpha = ((x * 255) // max(1, width - 1)).astype(np.uint8)
                rgba = np.dstack([rgb, alpha])
                name = f"{folder}/{width}x{height}"
                Image.fromarray(rgb, "RGB").save(name + "-lossy.webp", quality=80)
                Image.fromarray(rgb, "RGB").save(name + "-lossless.webp", lossless=True)
                Image.fromarray(rgba, "RGBA").save(name + "-lossy-alpha.webp", quality=80)
                Image.fromarray(rgba, "RGBA").save(name + "-lossless-alpha.webp", lossless=True)
            """
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script, folder.path])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "webp" }
        #expect(files.count == 16)
        for file in files {
            let ours = try pixels(of: file, libvips: false)
            let reference = try pixels(of: file, libvips: true)
            #expect(ours.decoder == .libwebp, "\(file.lastPathComponent)")
            #expect(ours.geometry == reference.geometry, "\(file.lastPathComponent)")
            #expect(ours.geometry?.bands == (file.lastPathComponent.contains("alpha") ? 4 : 3), "\(file.lastPathComponent)")
            #expect(ours.bytes == reference.bytes, "\(file.lastPathComponent): the two decodes differ")
        }
    }

    @Test("a truncated WebP is refused at its header or while decoding, never handed out as a partial picture",
          arguments: [0.5, 0.9, 0.99])
    func truncated(kept: Double) throws {
        let whole = try Data(contentsOf: Fixtures.testdataFile("variants/same-room.webp"))
        let data = whole.prefix(Int(Double(whole.count) * kept))
        var rows = 0
        do {
            let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
            let plan = image.plan(targetShortSide: 1024)
            #expect(plan.decoder == .libwebp)
            try image.decodeStrips(plan: plan, begin: { _ in }) { _, _, count, _ in rows += count }
            Issue.record("a WebP cut to \(kept) of its bytes decoded")
        } catch let failure as DecodeFailure {
            #expect(failure.reason == .corruptPixels || failure.reason == .unreadableHeader, "\(failure)")
        }
        #expect(rows == 0)
    }

    @Test("the estimate counts one canvas, and libwebp's whole ARGB picture only for lossless")
    func estimate() throws {
        let data = try Data(contentsOf: Fixtures.testdataFile("variants/same-room.webp"))
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        let header = image.header
        let estimate = image.plan(targetShortSide: 1024).estimatedBytes
        // A lossy RGB file: the RGB canvas, a few rows and the margin; far under libvips' 8 bytes a pixel.
        #expect(estimate >= header.pixelCount * 3)
        #expect(estimate < header.pixelCount * 4 + (5 << 20))
        #expect(image.plan(targetShortSide: 1024, lumaPaths: false).estimatedBytes >= header.pixelCount * DecodePlan.webpBytesPerPixel)
    }
}
