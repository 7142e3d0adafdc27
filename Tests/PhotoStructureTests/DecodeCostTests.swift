import Foundation
import PhotoStructure
import TestFixtures
import Testing

/// The decode cost the daemon's spare thread orders photos by (issue 63, finding 4).
@Suite("Decode cost from the header")
struct DecodeCostTests {
    private func cost(_ bytes: [UInt8]) -> DecodeCost {
        bytes.withUnsafeBytes { DecodeCost(of: $0) }
    }

    private func testdata(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Fixtures.testdataFile(path)))
    }

    @Test("a JPEG costs its declared pixels at the format's rate plus its bytes")
    func pixelsAndBytes() throws {
        let jpeg = try testdata("photos/cups.jpg")
        let size = try #require(jpeg.withUnsafeBytes { DeclaredSize($0) })
        let expected = Double(size.pixels) / 1_000_000 * 100 + Double(jpeg.count) / 1_000_000 * 100
        #expect(abs(Double(cost(jpeg).milliseconds) - expected) <= 1)
    }

    @Test("the same picture with 70 more progressive scans costs several times more")
    func scansCount() throws {
        let jpeg = try testdata("photos/cups.jpg")
        let manyScans = CostlyFiles.jpegScanFlood(jpeg, count: 70)
        #expect(cost(manyScans).milliseconds > 5 * cost(jpeg).milliseconds)
    }

    @Test("bytes that declare no size cost their bytes alone")
    func unreadable() {
        let bytes = [UInt8](repeating: 0x42, count: 2_000_000)
        #expect(cost(bytes) == DecodeCost(milliseconds: 200))
    }
}
