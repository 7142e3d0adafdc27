import Foundation
import PhotoFormat
import Testing

/// The values that cross the worker wall and reach the answers: their codes are the contract.
@Suite("Wire values")
struct WireValuesTests {
    @Test("decode failure reasons keep the codes the answers' details.error carry")
    func reasonCodes() {
        let codes = [
            DecodeFailure.Reason.emptyInput, .unsupportedFormat, .unreadableHeader, .pixelLimitExceeded, .costlyStructure,
            .corruptPixels, .memoryLimitExceeded, .decodeTimeout, .decoderCrashed, .libraryFailure, .decoderUnavailable,
        ].map(\.rawValue)
        #expect(codes == [
            "empty_input", "unsupported_format", "unreadable_header", "pixel_limit_exceeded", "costly_structure",
            "corrupt_pixels", "memory_limit_exceeded", "decode_timeout", "decoder_crashed", "library_failure", "decoder_unavailable",
        ])
        #expect(DecodeFailure(.corruptPixels, "the jpeg pixel data is truncated").description == "corrupt_pixels: the jpeg pixel data is truncated")
    }

    @Test("a reason is coded as its code, both ways")
    func reasonCoding() throws {
        let encoded = try JSONEncoder().encode([DecodeFailure.Reason.decoderCrashed])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["decoder_crashed"]"#)
        #expect(try JSONDecoder().decode([DecodeFailure.Reason].self, from: Data(#"["costly_structure"]"#.utf8)) == [.costlyStructure])
    }

    @Test("formats and decoders keep the names measurements and bench reports show")
    func formatAndDecoderNames() {
        #expect(ImageFormat.allCases.map(\.rawValue) == ["jpeg", "png", "webp", "heif"])
        #expect([DecodePlan.Decoder.libjpeg, .ffmpegHEVC, .libvips].map(\.rawValue) == ["libjpeg", "ffmpeg-hevc", "libvips"])
    }

    @Test("preview bounds default to the content check's and are coded as the worker request's fields")
    func previewBounds() throws {
        let bounds = PreviewBounds()
        #expect(bounds == PreviewBounds(maximumLongEdge: 1568, maximumPixels: 1_150_000, quality: 85))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = String(decoding: try encoder.encode(bounds), as: UTF8.self)
        #expect(encoded == #"{"maximumLongEdge":1568,"maximumPixels":1150000,"quality":85}"#)
        let decoded = try JSONDecoder().decode(PreviewBounds.self, from: Data(#"{"maximumLongEdge":512,"maximumPixels":4096,"quality":70}"#.utf8))
        #expect(decoded == PreviewBounds(maximumLongEdge: 512, maximumPixels: 4096, quality: 70))
    }

    @Test("a header turns its size by the EXIF orientation and ignores an invalid one")
    func headerOrientation() {
        let turned = ImageHeader(format: .jpeg, storedWidth: 4000, storedHeight: 3000, orientation: 6)
        #expect(turned.isTransposed && turned.width == 3000 && turned.height == 4000)
        #expect(turned.shortestSide == 3000 && turned.pixelCount == 12_000_000)
        let invalid = ImageHeader(format: .png, storedWidth: 10, storedHeight: 20, orientation: 9)
        #expect(invalid.orientation == 1 && invalid.width == 10 && invalid.height == 20)
    }
}
