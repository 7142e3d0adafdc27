import Foundation
@testable import ImageCodecs
import PhotoFormat
import TestFixtures
import Testing

/// The preview of the file at `url` as the validator makes it (from the blur check's decode for
/// JPEG and HEIC, decoded again for PNG and WebP), and its header.
func preview(_ url: URL) async throws -> (PreviewImage, ImageHeader) {
    try await offloaded {
        let data = try Data(contentsOf: url)
        return try data.withUnsafeBytes { bytes in
            let image = try ImageDecoder().open(bytes)
            let encoder = try PreviewEncoder()
            try image.decodeStrips(plan: image.plan(targetShortSide: 1024, preview: encoder)) { _ in } body: { _, _, _, _ in }
            return (try image.preview(using: encoder), image.header)
        }
    }
}

/// Checks the bounds every preview keeps and that its bytes are a metadata-free JPEG of its size.
func expectBoundedJPEG(_ preview: PreviewImage, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(max(preview.width, preview.height) <= 1568, sourceLocation: sourceLocation)
    #expect(preview.pixelCount <= 1_150_000, sourceLocation: sourceLocation)
    let info = try #require(JPEGInspection(preview.jpeg), sourceLocation: sourceLocation)
    #expect(info.width == preview.width && info.height == preview.height, sourceLocation: sourceLocation)
    #expect(info.hasNoMetadata, "segments: \(info.metadataSegments)", sourceLocation: sourceLocation)
    let decoded = try preview.jpeg.withUnsafeBytes { try ImageDecoder().open($0) }
    #expect(decoded.header.orientation == 1, sourceLocation: sourceLocation)
}

@Suite("Preview encoder", .integration, .timeLimit(.minutes(10)))
struct PreviewEncoderTests {
    @Test("a 2560x1600 JPEG becomes a JPEG within 1568 px and 1.15 MP, same aspect, no metadata")
    func jpegBounds() async throws {
        let (preview, image) = try await preview(Fixtures.testdataFile("photos/cups.jpg"))
        try expectBoundedJPEG(preview)
        #expect(preview.pixelCount > 1_100_000, "as large as the bounds allow")
        let aspect = Double(image.width) / Double(image.height)
        #expect(abs(Double(preview.width) / Double(preview.height) - aspect) < 0.01)
    }

    @Test("EXIF orientation is applied and the EXIF block is gone", arguments: ["variants/rotated-6.jpg", "variants/rotated-8.jpg", "variants/rotated-3.jpg"])
    func orientationApplied(file: String) async throws {
        let source = try Array(Data(contentsOf: Fixtures.testdataFile(file)))
        #expect(JPEGInspection(source)?.metadataSegments.contains("APP1:Exif") == true, "the source carries EXIF")
        let (preview, image) = try await preview(Fixtures.testdataFile(file))
        try expectBoundedJPEG(preview)
        #expect((preview.width > preview.height) == (image.width > image.height), "displayed orientation kept")
    }

    @Test("every accepted format and pixel layout gives an sRGB JPEG", arguments: [
        "variants/same-room.heic", "variants/same-room.webp", "variants/same-room.png", "variants/rgba.png",
        "variants/cmyk.jpg", "variants/deep-16bit.png", "variants/deep-16bit-rgb.png", "variants/gray.jpg", "variants/palette.png",
    ])
    func formats(file: String) async throws {
        let (preview, image) = try await preview(Fixtures.testdataFile(file))
        try expectBoundedJPEG(preview)
        #expect(preview.width <= image.width && preview.height <= image.height)
    }

    @Test("a truncated photo is an error, not a grey preview", arguments: ["variants/truncated-room.jpg", "variants/truncated-room.png"])
    func truncated(file: String) throws {
        let data = try Data(contentsOf: Fixtures.testdataFile(file))
        let format = try open(Fixtures.testdataFile(file)).header.format
        #expect(throws: DecodeFailure.self) {
            try data.withUnsafeBytes { try PreviewEncoder().preview(of: $0, format: format) }
        }
    }

    @Test("a generated 18-megapixel PNG is bounded like any other")
    func largePNG() async throws {
        let preview = try await offloaded {
            try SyntheticPNG.pattern(width: 4900, height: 3700).withUnsafeBytes { try PreviewEncoder().preview(of: $0, format: .png) }
        }
        try expectBoundedJPEG(preview)
        #expect(preview.width == 1234 || abs(preview.width - 1234) <= 2)
    }

    @Test("the 18-megapixel iPhone JPEG uses shrink-on-load and stays within bounds", .enabled(if: Fixtures.sharedRequiredOrPresent, "needs ../shared/photos"))
    func eighteenMegapixels() async throws {
        let url = try #require(Fixtures.sharedFile("photos/room-bathroom-1.jpg"))
        let (preview, image) = try await preview(url)
        #expect(image.pixelCount > 18_000_000)
        try expectBoundedJPEG(preview)
        #expect(preview.height > preview.width, "portrait as displayed")
    }

    @Test("the fitting scale respects both bounds after rounding")
    func fittingScale() throws {
        let encoder = try PreviewEncoder()
        for (width, height) in [(5712, 3213), (4032, 3024), (1568, 1568), (10_000, 100), (1000, 800), (1073, 1073)] {
            let scale = encoder.fittingScale(width: width, height: height)
            let w = (Double(width) * scale).rounded(), h = (Double(height) * scale).rounded()
            #expect(max(w, h) <= 1568 && w * h <= 1_150_000, "\(width)x\(height)")
            #expect(scale <= 1)
        }
        #expect(encoder.fittingScale(width: 1000, height: 800) == 1, "small photos are not enlarged")
    }
}
