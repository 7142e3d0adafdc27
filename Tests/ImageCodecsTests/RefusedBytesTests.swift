@testable import ImageCodecs
import PhotoFormat
import Testing

/// What the decoder does with bytes the sniffer refuses (the sniffer itself: PhotoStructureTests).
@Suite("Refused bytes never reach libvips", .timeLimit(.minutes(10)))
struct RefusedBytesTests {
    @Test("the decoder never hands refused bytes to libvips: the 22-byte gzip upload is unsupported_format")
    func gzipNeverReachesLibvips() throws {
        let bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0xA3, 0x4B, 0x47, 0x65, 0x02, 0xFF, 0xAB, 0x00, 0x00, 0x83, 0x16, 0xDC, 0x8C, 0x01, 0x00, 0x00, 0x00, 0x00]
        let failure = #expect(throws: DecodeFailure.self) {
            _ = try bytes.withUnsafeBytes { try ImageDecoder().open($0) }
        }
        #expect(failure?.reason == .unsupportedFormat)
    }
}
