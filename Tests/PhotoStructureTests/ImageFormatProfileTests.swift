import PhotoFormat
@testable import PhotoStructure
import Testing

/// The sniffer's verdict for `bytes`.
private func sniff(_ bytes: [UInt8]) -> FormatSniffer.Verdict {
    bytes.withUnsafeBytes { FormatSniffer.sniff($0) }
}

/// Each accepted format's profile, and the refusals with a message of their own; no decoder is linked.
@Suite("One profile per image format")
struct ImageFormatProfileTests {
    @Test("every format has exactly one profile, no extension names two formats, and each profile's signature names its own format")
    func onePerFormat() {
        #expect(ImageFormatProfile.all.map(\.format).sorted { $0.rawValue < $1.rawValue } == ImageFormat.allCases.sorted { $0.rawValue < $1.rawValue })
        let extensions = ImageFormatProfile.all.flatMap(\.fileExtensions)
        #expect(Set(extensions).count == extensions.count, "\(extensions)")
        let signatures: [ImageFormat: [UInt8]] = [
            .jpeg: [0xFF, 0xD8, 0xFF, 0xE0],
            .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            .webp: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
            .heif: [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8),
        ]
        for profile in ImageFormatProfile.all {
            let bytes = signatures[profile.format]! + [UInt8](repeating: 0, count: 32)
            #expect(sniff(bytes) == .format(profile.format), "\(profile.name)")
            #expect(profile.format.profile.name == profile.name)
        }
    }

    @Test("the daemon's least memory grows with the picture for the formats whose decoder holds pixels, and is none for JPEG's strips")
    func leastMemory() {
        #expect(ImageFormat.jpeg.profile.leastDecoderBytes(width: 8000, height: 6000) == 0)
        #expect(ImageFormat.png.profile.leastDecoderBytes(width: 8000, height: 6000) == 8000 * 3 * 256)
        #expect(ImageFormat.webp.profile.leastDecoderBytes(width: 8000, height: 6000) == 48_000_000 * DecodePlan.leastWebPBytesPerPixel)
        #expect(ImageFormat.heif.profile.leastDecoderBytes(width: 8000, height: 6000) == 48_000_000)
    }

    @Test("TIFF, either byte order, is refused with its own message; unknown bytes are refused naming every accepted format")
    func refusedWithOwnMessage() {
        let tiff = "TIFF is not accepted; export the photo as JPEG"
        #expect(sniff([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]) == .refused(tiff))
        #expect(sniff([0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]) == .refused(tiff))
        #expect(sniff(Array("GIF89a".utf8)) == .refused("GIF is not accepted"))
        #expect(sniff(Array("BM6".utf8) + [0, 0]) == .refused("the bytes start with 42 4D 36 00, which is not JPEG, PNG, WebP or HEIC"))
        #expect(sniff([]) == .refused("the upload is empty"))
    }
}
