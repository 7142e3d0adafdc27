import PhotoFormat
@testable import PhotoStructure
import Testing

/// The sniffer's verdict for `bytes`.
private func sniff(_ bytes: [UInt8]) -> FormatSniffer.Verdict {
    bytes.withUnsafeBytes { FormatSniffer.sniff($0) }
}

/// An ISO-BMFF `ftyp` box with `major` and `compatible` brands, followed by padding.
private func ftyp(_ major: String, _ compatible: [String], declaredSize: Int? = nil) -> [UInt8] {
    let size = declaredSize ?? 16 + 4 * compatible.count
    var bytes: [UInt8] = [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
    bytes += Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
    for brand in compatible { bytes += Array(brand.utf8) }
    return bytes + [UInt8](repeating: 0, count: 64)
}

@Suite("Format sniffing from magic bytes", .timeLimit(.minutes(10)))
struct FormatSnifferTests {
    @Test("the four allowed formats are named from their first bytes")
    func allowed() {
        #expect(sniff([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 12)) == .format(.jpeg))
        #expect(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .format(.png))
        #expect(sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .format(.webp))
        #expect(sniff(ftyp("heic", ["mif1", "heic"])) == .format(.heif))
        #expect(sniff(ftyp("mif1", ["heic"])) == .format(.heif))
    }

    @Test("gzip, SVG, GIF, text and truncated signatures are refused before any loader", arguments: [
        [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xFF, 0xAB, 0x00, 0x00, 0x83, 0x16, 0xDC, 0x8C, 0x01, 0x00, 0x00, 0x00, 0x00],
        Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8),
        Array("GIF89a".utf8) + [1, 0, 1, 0],
        Array("hello world".utf8),
        [0xFF, 0xD8],
        [0x89, 0x50, 0x4E, 0x47],
        Array("RIFF".utf8) + [0, 0, 0, 0] + Array("AVI LIST".utf8),
    ] as [[UInt8]])
    func refused(bytes: [UInt8]) {
        guard case .refused = sniff(bytes) else {
            Issue.record("\(bytes.prefix(8)) was accepted")
            return
        }
    }

    @Test("AVIF and ftyp boxes of impossible size are refused")
    func isoBaseMedia() {
        #expect(sniff(ftyp("avif", ["mif1", "miaf"])) == .refused("AVIF is not accepted; only HEIC among HEIF images"))
        guard case .refused = sniff(ftyp("heic", ["mif1"], declaredSize: 3)) else { Issue.record("size 3 accepted"); return }
        guard case .refused = sniff(ftyp("heic", ["mif1"], declaredSize: 1 << 30)) else { Issue.record("size 1 GiB accepted"); return }
        guard case .refused = sniff(ftyp("mp42", ["isom"])) else { Issue.record("an MP4 was accepted"); return }
    }
}
