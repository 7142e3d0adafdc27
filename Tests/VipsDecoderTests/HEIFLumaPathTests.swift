import Foundation
import TestFixtures
import Testing
@testable import VipsDecoder

@Suite("The HEIC luma path: the Swift HEIF reader and FFmpeg's HEVC decoder", .timeLimit(.minutes(10)))
struct HEIFLumaPathTests {
    private func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    @Test("an iPhone HEIC is read as an 8x6 grid of 512-pixel tiles sharing one decoder configuration",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func iPhoneGrid() throws {
        let url = try #require(Fixtures.sharedFile("photos/room-couch-pug.heic"))
        let data = try bytes(url)
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        #expect(container.columns == 8 && container.rows == 6)
        #expect(container.tileWidth == 512 && container.tileHeight == 512)
        #expect(container.width == 4032 && container.height == 3024 && container.quarterTurns == 0)
        #expect(container.tiles.count == 48)
        #expect(container.tiles.allSatisfy { $0.allSatisfy { $0.upperBound <= data.count && !$0.isEmpty } })
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        #expect(image.plan(targetShortSide: 1024).decoder == .ffmpegHEVC)
        #expect(image.plan(targetShortSide: 1024).luma)
        // Native analysis (OpenCV parity) and the RGB comparison stay with libvips.
        #expect(image.plan(targetShortSide: nil).decoder == .libvips)
        #expect(image.plan(targetShortSide: 1024, lumaPaths: false).decoder == .libvips)
    }

    @Test("a rotated HEIC (irot) is turned as libheif turns it: same displayed size, same picture",
          .enabled(if: Fixtures.sharedRequiredOrPresent))
    func rotated() throws {
        let url = try #require(Fixtures.sharedFile("photos/paper-arrow.heic"))
        let data = try bytes(url)
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        #expect(container.quarterTurns == 3)
        #expect(container.displayedWidth == 3024 && container.displayedHeight == 4032)
        // The luma plane, turned, matches the luma of libvips' RGB decode pixel for pixel, up to
        // rounding and chroma: compare a 64-row band in the middle of each.
        func band(lumaPaths: Bool) throws -> (PixelGeometry, [UInt8]) {
            let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
            var geometry: PixelGeometry?
            var rows: [UInt8] = []
            try image.decodeStrips(plan: image.plan(targetShortSide: 1024, lumaPaths: lumaPaths)) { geometry = $0 } body: { strip, first, count, stride in
                guard first == 2048, let geometry else { return }
                for row in 0..<count {
                    for x in 0..<geometry.width {
                        let pixel = strip + row * stride + x * geometry.bands
                        if geometry.bands == 1 {
                            rows.append(pixel[0])
                        } else {
                            let weighted: Int = 299 * Int(pixel[0]) + 587 * Int(pixel[1]) + 114 * Int(pixel[2])
                            rows.append(UInt8((weighted + 500) / 1000))
                        }
                    }
                }
            }
            return (try #require(geometry), rows)
        }
        let (lumaGeometry, luma) = try band(lumaPaths: true)
        let (rgbGeometry, rgb) = try band(lumaPaths: false)
        #expect(lumaGeometry.width == rgbGeometry.width && lumaGeometry.height == rgbGeometry.height && lumaGeometry.bands == 1)
        try #require(luma.count == rgb.count && !luma.isEmpty)
        let meanDifference = zip(luma, rgb).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(luma.count)
        #expect(meanDifference < 1.5, "mean |luma - libvips luma| \(meanDifference)")
    }

    @Test("rotation by one, two and three quarter turns anticlockwise", arguments: [1, 2, 3])
    func quarterTurns(_ turns: Int) {
        // A 3x2 picture: 0 1 2 / 3 4 5.
        let plane: [UInt8] = [0, 1, 2, 3, 4, 5]
        let expected: [[UInt8]] = [[], [2, 5, 1, 4, 0, 3], [5, 4, 3, 2, 1, 0], [3, 0, 4, 1, 5, 2]]
        let height = turns == 2 ? 2 : 3
        var output = [UInt8](repeating: 255, count: 6)
        plane.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { strip in
                HEIFLumaDecoder.rotate(source.baseAddress!, width: 3, height: 2, quarterTurns: turns, rows: 0..<height, into: strip.baseAddress!)
            }
        }
        #expect(output == expected[turns])
    }

    @Test("a damaged HEVC tile is corrupt_pixels, naming the tile (libde265 behind libvips decodes it)")
    func damagedTile() throws {
        var data = try bytes(Fixtures.testdataFile("variants/same-room.heic"))
        data[data.count / 3] ^= 0xFF
        let image = try data.withUnsafeBytes { try ImageDecoder().open($0) }
        let plan = image.plan(targetShortSide: 1024)
        #expect(plan.decoder == .ffmpegHEVC)
        do {
            try image.decodeStrips(plan: plan) { _ in } body: { _, _, _, _ in }
            Issue.record("the damaged tile decoded")
        } catch let failure as DecodeFailure {
            #expect(failure.reason == .corruptPixels)
            #expect(failure.message.contains("tile 1 of 1"), "\(failure.message)")
        }
    }

    @Test("a bitstream declaring a picture far larger than its tile is refused before FFmpeg allocates it")
    func oversizedBitstream() throws {
        let data = try bytes(Fixtures.testdataFile("variants/same-room.heic"))
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        // The same bytes, with the container claiming 64x64 tiles: the bitstream's 1760x1100 SPS
        // is over the cap derived from the tile size.
        let lying = HEIFContainer(
            width: 64, height: 64, columns: 1, rows: 1, tileWidth: 64, tileHeight: 64,
            tiles: container.tiles, configuration: container.configuration, quarterTurns: 0
        )
        #expect(throws: DecodeFailure.self) {
            try data.withUnsafeBytes { bytes in
                try HEIFLumaDecoder(container: lying).decode(bytes, rowsPerStrip: 64) { _ in } body: { _, _, _, _ in }
            }
        }
    }

    /// The offset of the first box of type `type` (its size field) in `data`.
    private func boxOffset(_ type: String, in data: [UInt8]) throws -> Int {
        let needle = Array(type.utf8)
        let at = try #require((4..<(data.count - 4)).first { Array(data[$0..<($0 + 4)]) == needle }, "no \(type) box")
        return at - 4
    }

    @Test("an iloc whose extents take no bytes cannot stand for thousands of them, and no tile may be larger than an HEVC picture")
    func amplification() throws {
        let original = try bytes(Fixtures.testdataFile("variants/same-room.heic"))
        // iloc v0: version and flags, then the field sizes; with all sizes 0 the first item's
        // extent count follows its id and data reference directly.
        var zeroSized = original
        let iloc = try boxOffset("iloc", in: original)
        zeroSized[iloc + 12] = 0
        zeroSized[iloc + 13] = 0
        zeroSized[iloc + 20] = 0xFF
        zeroSized[iloc + 21] = 0xFF
        #expect(throws: HEIFContainer.Unsupported("the iloc box declares many extents of no size")) {
            try zeroSized.withUnsafeBytes { try HEIFContainer.read($0) }
        }
        var huge = original
        let ispe = try boxOffset("ispe", in: original)
        for index in 0..<8 { huge[ispe + 12 + index] = index % 4 == 1 ? 0x01 : 0 }  // 65,536 x 65,536
        #expect {
            try huge.withUnsafeBytes { try HEIFContainer.read($0) }
        } throws: { error in
            (error as? HEIFContainer.Unsupported)?.reason.contains("larger than any HEVC picture") == true
        }
    }

    @Test("a tile carrying parameter sets of its own, or two pictures, is left to libvips (FFmpeg and libheif would read it differently)")
    func ambiguousTiles() throws {
        let original = try bytes(Fixtures.testdataFile("variants/same-room.heic"))
        // same-room.heic's one tile starts at byte 0x168 (iloc): a 4-byte length, then the NAL header.
        let header = 0x168 + 4
        try #require(Int(original[header] >> 1) & 0x3F < 32, "the first NAL unit is not a coded slice")
        var withParameterSet = original
        withParameterSet[header] = 33 << 1
        #expect(throws: HEIFContainer.Unsupported("tile 1 carries parameter sets of its own")) {
            try withParameterSet.withUnsafeBytes { try HEIFContainer.read($0) }
        }
        let image = try withParameterSet.withUnsafeBytes { try ImageDecoder().open($0) }
        #expect(image.plan(targetShortSide: 1024).decoder == .libvips)
    }

    @Test("mutated containers never trap the reader, and every range it returns lies inside the file")
    func mutatedContainers() throws {
        var generator = SplitMix64(state: 0x4845_4946)
        for name in ["variants/same-room.heic", "variants/same-small.heic"] {
            let original = try bytes(Fixtures.testdataFile(name))
            // The meta box sits in the first few kilobytes; mutate there.
            let window = min(original.count, 4096)
            var accepted = 0
            for _ in 0..<3000 {
                var data = original
                for _ in 0..<Int(generator.next() % 4 + 1) {
                    data[Int(generator.next() % UInt64(window))] = UInt8(truncatingIfNeeded: generator.next())
                }
                if generator.next() % 8 == 0 {
                    data.removeLast(Int(generator.next() % UInt64(data.count)))
                }
                guard let container = try? data.withUnsafeBytes({ try HEIFContainer.read($0) }) else { continue }
                accepted += 1
                #expect(container.tiles.allSatisfy { $0.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= data.count } })
                #expect(container.configuration.upperBound <= data.count)
                #expect(container.tiles.count == container.rows * container.columns)
                #expect(container.tileWidth * container.columns >= container.width && container.tileHeight * container.rows >= container.height)
            }
            #expect(accepted > 0, "no mutation of \(name) was readable: the test exercises nothing")
        }
    }
}
