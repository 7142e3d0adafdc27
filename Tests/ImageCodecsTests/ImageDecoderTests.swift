import Foundation
@testable import ImageCodecs
import PhotoFormat
import Synchronization
import TestFixtures
import Testing

/// Opens `url` with a default decoder.
func open(_ url: URL, pixelLimit: Int = ImageDecoder.defaultPixelLimit) throws -> EncodedImage {
    let data = try Data(contentsOf: url)
    return try data.withUnsafeBytes { try ImageDecoder(pixelLimit: pixelLimit).open($0) }
}

/// The failure reason of opening and fully decoding `url`, or nil when it decodes.
func failureReason(_ url: URL, pixelLimit: Int = ImageDecoder.defaultPixelLimit) throws -> DecodeFailure.Reason? {
    do {
        let image = try open(url, pixelLimit: pixelLimit)
        var rows = 0
        try image.decodeStrips(plan: image.plan(targetShortSide: 1024), begin: { _ in }) { _, _, count, _ in rows += count }
        return nil
    } catch let failure as DecodeFailure {
        return failure.reason
    }
}

@Suite("Image decoder", .integration, .timeLimit(.minutes(10)))
struct ImageDecoderTests {
    @Test("reads format, size and orientation from the header")
    func header() throws {
        let image = try open(Fixtures.testdataFile("photos/room-living-wine.jpg"))
        #expect(image.header.format == .jpeg)
        #expect(image.header.width == 2560 && image.header.height == 3837)
        #expect(image.header.orientation == 1)
    }

    @Test("EXIF orientation 6 swaps the displayed width and height")
    func orientation() throws {
        let image = try open(Fixtures.testdataFile("variants/rotated-6.jpg"))
        #expect(image.header.orientation == 6)
        #expect(image.header.storedWidth > image.header.storedHeight)
        #expect(image.header.width == image.header.storedHeight)
        #expect(image.header.height == image.header.storedWidth)
    }

    @Test("recognises all four allowed formats", arguments: [
        ("variants/same-room.jpg", ImageFormat.jpeg), ("variants/same-room.png", .png),
        ("variants/same-room.webp", .webp), ("variants/same-room.heic", .heif),
    ])
    func formats(file: String, format: ImageFormat) throws {
        #expect(try open(Fixtures.testdataFile(file)).header.format == format)
    }

    @Test("an empty upload is empty_input")
    func empty() throws {
        let failure = #expect(throws: DecodeFailure.self) {
            _ = try ImageDecoder().open(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        #expect(failure?.reason == .emptyInput)
    }

    @Test("text named .jpg is unsupported_format")
    func textIsNotAnImage() throws {
        #expect(try failureReason(Fixtures.testdataFile("bad-inputs/text-named.jpg")) == .unsupportedFormat)
    }

    @Test("a PNG named .jpg decodes by content")
    func pngNamedJpg() throws {
        let image = try open(Fixtures.testdataFile("bad-inputs/png-named.jpg"))
        #expect(image.header.format == .png)
    }

    @Test("a header over the pixel limit is refused before any decode")
    func pixelLimit() throws {
        // A photo that decodes fine is refused once the limit is below its size.
        #expect(try failureReason(Fixtures.testdataFile("photos/room-living-wine.jpg"), pixelLimit: 1_000_000) == .pixelLimitExceeded)
    }

    @Test("truncated data fails while decoding, never grey-filled", arguments: ["variants/truncated-room.jpg", "variants/truncated-room.png", "variants/truncated-room.webp"])
    func truncated(file: String) throws {
        let reason = try failureReason(Fixtures.testdataFile(file))
        #expect(reason == .corruptPixels || reason == .unreadableHeader)
    }

    /// The message of opening and fully decoding `url`, which must fail.
    private func failureMessage(_ url: URL) -> String {
        do {
            let image = try open(url)
            try image.decodeStrips(plan: image.plan(targetShortSide: 1024), begin: { _ in }) { _, _, _, _ in }
            return "decoded"
        } catch {
            return String(describing: error)
        }
    }

    @Test("a failure alone carries libvips' own text about its own loader; one that overlapped another says it was withheld")
    func failureDetailAlone() async throws {
        let url = Fixtures.testdataFile("variants/truncated-room.png")
        // Other suites decode in this process at the same time (DecodeMemoryAgreementTests for two
        // to four minutes on a busy machine), so a failure is alone only some of the time: keep
        // trying for up to six minutes (it is alone within a second once they are done).
        var messages: [String] = []
        let giveUp = ContinuousClock.now + .seconds(360)
        while ContinuousClock.now < giveUp {
            let message = failureMessage(url)
            messages.append(message)
            if !message.contains("withheld") { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(messages.allSatisfy { $0.contains("png") })
        #expect(messages.contains { !$0.contains("withheld") }, "no failure was alone in \(messages.count) tries: \(messages.last ?? "")")
    }

    @Test("concurrent failures never carry another photo's libvips error text")
    func failureDetailIsPerRequest() throws {
        let png = Fixtures.testdataFile("variants/truncated-room.png"), webp = Fixtures.testdataFile("variants/truncated-room.webp")
        let messages = Mutex([(isPNG: Bool, message: String)]())
        DispatchQueue.concurrentPerform(iterations: 48) { index in
            let isPNG = index % 2 == 0
            let message = failureMessage(isPNG ? png : webp)
            messages.withLock { $0.append((isPNG, message)) }
        }
        for (isPNG, message) in messages.withLock({ $0 }) {
            // The detail follows the first ": "; the other loader's name must not appear in it.
            let detail = message.split(separator: ":", maxSplits: 2).dropFirst(2).joined(separator: ":").lowercased()
            #expect(message != "decoded")
            #expect(!detail.contains(isPNG ? "webp" : "png"), "\(message)")
        }
    }

    @Test("JPEG DCT scaling picks the smallest M/8 that keeps the shortest side at or above the target")
    func decodeScale() throws {
        let image = try open(Fixtures.testdataFile("photos/room-living-wine.jpg"))
        // Shortest side 2560: 2560 * 3/8 = 960 < 1024 <= 2560 * 4/8 = 1280; 2560 * 2/8 = 640.
        #expect(image.plan(targetShortSide: 1024).scaleNumerator == 4)
        #expect(image.plan(targetShortSide: 1000).scaleNumerator == 4)
        #expect(image.plan(targetShortSide: 960).scaleNumerator == 3)
        #expect(image.plan(targetShortSide: 640).scaleNumerator == 2)
        #expect(image.plan(targetShortSide: 1024).luma)
        let native = image.plan(targetShortSide: nil)
        #expect(native.scaleNumerator == 8 && !native.luma)
        let png = try open(Fixtures.testdataFile("variants/same-room.png"))
        #expect(png.plan(targetShortSide: 100).scaleNumerator == 8)
        // libvips (CMYK JPEGs) shrinks by powers of two only.
        #expect(EncodedImage.smallestScaleNumerator(shortestSide: 3024, target: 1024, powersOfTwo: false) == 3)
        #expect(EncodedImage.smallestScaleNumerator(shortestSide: 3024, target: 1024, powersOfTwo: true) == 4)
    }

    @Test("strips cover every row once, top to bottom, at the shrunk size")
    func stripsCoverRows() throws {
        let image = try open(Fixtures.testdataFile("photos/room-living-wine.jpg"))
        var geometry: PixelGeometry?
        var nextRow = 0
        let plan = image.plan(targetShortSide: 1024)
        try image.decodeStrips(plan: plan, rowsPerStrip: 50) { geometry = $0 } body: { _, first, count, stride in
            #expect(first == nextRow)
            #expect(stride >= geometry!.width * geometry!.bands)
            nextRow += count
        }
        // 2560 x 3837 at 4/8, luma only; libjpeg rounds the scaled size up.
        #expect(geometry == PixelGeometry(width: 1280, height: 1919, bands: 1))
        #expect(nextRow == 1919)
    }

    @Test("16-bit, RGBA, grey and palette images decode to 8-bit samples", arguments: [
        ("variants/deep-16bit.png", 1), ("variants/deep-16bit-rgb.png", 3), ("variants/rgba.png", 4),
        ("variants/gray.jpg", 1), ("variants/palette.png", 3), ("variants/cmyk.jpg", 3),
    ])
    func unusualLayouts(file: String, bands: Int) throws {
        let image = try open(Fixtures.testdataFile(file))
        var geometry: PixelGeometry?
        try image.decodeStrips(plan: image.plan(targetShortSide: nil)) { geometry = $0 } body: { _, _, _, _ in }
        #expect(geometry?.bands == bands)
    }
}

@Suite("Hostile inputs from ../shared/bad-inputs", .integration, .enabled(if: Fixtures.sharedRequiredOrPresent, "needs ../shared/ beside the checkout (its photos may not be copied into the repository)"), .timeLimit(.minutes(10)))
struct HostileInputTests {
    @Test("each is refused with the expected reason", arguments: [
        ("broken-data-stream.png", [DecodeFailure.Reason.corruptPixels, .unreadableHeader]),
        ("broken.png", [.corruptPixels, .unreadableHeader, .unsupportedFormat]),
        ("corrupt-header.jpg", [.unreadableHeader, .unsupportedFormat, .corruptPixels]),
        ("corrupted.heic", [.unreadableHeader, .unsupportedFormat, .corruptPixels]),
        ("decompression-bomb.gif", [.unsupportedFormat]),
        ("empty.heic", [.emptyInput]),
        ("giant-280mp.jpg", [.pixelLimitExceeded]),
        ("huge-17000x17000.avif", [.unsupportedFormat, .pixelLimitExceeded]),
        ("huge-200mp.heic", [.pixelLimitExceeded]),
        ("huge-65536-uint32-limit.png", [.pixelLimitExceeded, .unreadableHeader]),
        ("tiny-16-bytes.heic", [.unsupportedFormat, .unreadableHeader]),
        ("truncated.gif", [.unsupportedFormat]),
        ("truncated.jpg", [.corruptPixels]),
        ("truncated.png", [.corruptPixels]),
    ])
    func refused(file: String, accepted: [DecodeFailure.Reason]) throws {
        let reason = try failureReason(try #require(Fixtures.sharedFile("bad-inputs/\(file)")))
        #expect(reason.map { accepted.contains($0) } == true, "\(file) gave \(String(describing: reason))")
    }
}
