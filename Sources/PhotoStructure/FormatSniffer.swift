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

    /// Signatures of formats that are refused with a message of their own, each tried after the
    /// accepted formats' (`ImageFormatProfile.signature`); any other file is refused naming its
    /// first bytes. AVIF is refused by the HEIC profile, from the brands of its `ftyp` box.
    static let refusedSignatures: [(prefix: [UInt8], message: String)] = [
        ([0x47, 0x49, 0x46, 0x38], "GIF is not accepted"),
        // TIFF, little-endian ("II*") and big-endian ("MM*"): what scanners and some cameras write.
        ([0x49, 0x49, 0x2A, 0x00], "TIFF is not accepted; export the photo as JPEG"),
        ([0x4D, 0x4D, 0x00, 0x2A], "TIFF is not accepted; export the photo as JPEG"),
    ]

    /// The format of `bytes`, from their first bytes only.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        for profile in ImageFormatProfile.all {
            if let verdict = profile.signature(bytes) { return verdict }
        }
        if let refused = refusedSignatures.first(where: { starts(bytes, with: $0.prefix) }) {
            return .refused(refused.message)
        }
        if bytes.isEmpty {
            return .refused("the upload is empty")
        }
        let shown = bytes.prefix(4).map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
        let names = ImageFormatProfile.all.map(\.name)
        return .refused("the bytes start with \(shown.joined(separator: " ")), which is not \(names.dropLast().joined(separator: ", ")) or \(names.last!)")
    }

    /// True when `bytes` start with `prefix`.
    static func starts(_ bytes: UnsafeRawBufferPointer, with prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(prefix.indices, prefix).allSatisfy { bytes[$0] == $1 }
    }

    /// The bytes in `range` as text (for four-character codes).
    static func ascii(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Reads the `ftyp` box: its size must be sane and a brand must name HEVC or the generic
    /// image structure; AVIF is refused.
    static func sniffISOBaseMedia(_ bytes: UnsafeRawBufferPointer) -> Verdict {
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
