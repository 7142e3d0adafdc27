/// What the marker segments of a JPEG say, read without decoding: its size and which metadata
/// blocks it carries (EXIF, XMP, ICC, IPTC, comments).
package struct JPEGInspection: Sendable, Equatable {
    /// Width from the SOF segment.
    package let width: Int
    /// Height from the SOF segment.
    package let height: Int
    /// Application and comment segments found before the scan, such as `APP1:Exif`, `APP2:ICC_PROFILE`, `COM`.
    package let metadataSegments: [String]

    /// True when no EXIF (and so no GPS), XMP, ICC, IPTC or comment segment is present.
    package var hasNoMetadata: Bool {
        metadataSegments.allSatisfy { $0 == "APP0:JFIF" }
    }

    /// Reads the segments of `bytes`, or nil when it is not a JPEG with a frame header.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        var segments: [String] = []
        var size: (Int, Int)?
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let payload = index + 4
            guard length >= 2, payload + length - 2 <= bytes.count else { return nil }
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard length >= 7 else { return nil }
                size = (Int(bytes[payload + 3]) << 8 | Int(bytes[payload + 4]), Int(bytes[payload + 1]) << 8 | Int(bytes[payload + 2]))
            case 0xE0...0xEF:
                let name = bytes[payload..<min(payload + length - 2, payload + 12)].prefix { $0 != 0 && $0 >= 0x20 && $0 < 0x7F }
                segments.append("APP\(marker - 0xE0):" + String(decoding: name, as: UTF8.self))
            case 0xFE:
                segments.append("COM")
            default:
                break
            }
            if marker == 0xDA { break }
            index = payload + length - 2
        }
        guard let (width, height) = size else { return nil }
        self.width = width
        self.height = height
        self.metadataSegments = segments
    }
}
