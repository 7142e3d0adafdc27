import PhotoFormat

/// Decides an upload's format from its magic bytes, before any C library sees them.
///
/// Only the loader named here is ever called on the bytes: libvips' own loader search runs every
/// loader's sniffer (SVG, GIF, ImageMagick...), and libvips 8.14's SVG sniffer loops forever on a
/// 22-byte gzip payload.
public enum FormatSniffer {
    /// The HEIF brands of HEVC-coded images (HEIC and its sequence and multi-layer variants).
    static let hevcBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    /// The structural brands that HEIC and AVIF files share; such a file is accepted when a
    /// compatible brand names HEVC, or its coding is checked after the header is read.
    static let genericBrands: Set<String> = ["mif1", "msf1", "mif2", "miaf"]
    /// AVIF brands: refused before libheif parses anything.
    static let avifBrands: Set<String> = ["avif", "avis"]

    /// What the bytes are, as far as the magic bytes tell.
    public enum Verdict: Sendable, Equatable {
        /// One of the allowed formats.
        case format(ImageFormat)
        /// Not an allowed format; the explanation names what was seen.
        case refused(String)
    }

    /// The format of `bytes`, from their first bytes only.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        let count = bytes.count
        func starts(with prefix: [UInt8]) -> Bool {
            count >= prefix.count && zip(prefix.indices, prefix).allSatisfy { bytes[$0] == $1 }
        }
        func ascii(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) {
            return .format(.jpeg)
        }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .format(.png)
        }
        if count >= 16, ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" {
            return .format(.webp)
        }
        if count >= 16, ascii(4..<8) == "ftyp" {
            return sniffISOBaseMedia(bytes)
        }
        if starts(with: [0x47, 0x49, 0x46, 0x38]) {
            return .refused("GIF is not accepted")
        }
        if count == 0 {
            return .refused("the upload is empty")
        }
        let shown = bytes.prefix(4).map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        return .refused("the bytes start with \(shown.joined(separator: " ")), which is not JPEG, PNG, WebP or HEIC")
    }

    /// Reads the `ftyp` box: its size must be sane and a brand must name HEVC or the generic
    /// image structure; AVIF is refused.
    private static func sniffISOBaseMedia(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard size >= 16, size <= bytes.count, size <= 4096, size % 4 == 0 else {
            return .refused("the ISO-BMFF ftyp box has an impossible size (\(size) bytes)")
        }
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= size {
            brands.append(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self))
            offset += 4
        }
        if brands.contains(where: avifBrands.contains) && !brands.contains(where: hevcBrands.contains) {
            return .refused("AVIF is not accepted; only HEIC among HEIF images")
        }
        if brands.contains(where: hevcBrands.contains) || brands.contains(where: genericBrands.contains) {
            return .format(.heif)
        }
        return .refused("an ISO-BMFF file with brands \(brands.joined(separator: ", ")), not HEIC")
    }
}
