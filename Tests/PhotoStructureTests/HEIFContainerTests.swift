import Foundation
@testable import PhotoStructure
import TestFixtures
import Testing

/// The Swift HEIF container reader alone, on real and mutated HEICs: no decoder is linked (the
/// decode, FFmpeg's, is tested in ImageCodecsTests' HEIFReaderTests).
@Suite("HEIF container reader", .timeLimit(.minutes(10)))
struct HEIFContainerTests {
    private func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    @Test("the sequence parameter set of a real hvcC declares its tile's size and chroma format (4:4:4 here)")
    func sequenceParameters() throws {
        let data = try bytes(Fixtures.testdataFile("variants/same-room.heic"))
        let container = try data.withUnsafeBytes { try HEIFContainer.read($0) }
        #expect(container.tileWidth == 1760 && container.tileHeight == 1100 && container.chromaFormat == 3)
    }

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
                #expect(container.configurations.allSatisfy { $0.upperBound <= data.count })
                #expect(container.tiles.count == container.rows * container.columns)
                #expect(container.tileWidth * container.columns >= container.width && container.tileHeight * container.rows >= container.height)
            }
            #expect(accepted > 0, "no mutation of \(name) was readable: the test exercises nothing")
        }
    }
}
