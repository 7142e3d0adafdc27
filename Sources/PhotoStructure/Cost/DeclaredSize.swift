import PhotoFormat

/// A photo's format and the pixel size its header declares, read in Swift from the bytes alone
/// (no C library): what the daemon needs to give the photo a deadline and a share of the decode
/// memory before a worker sees it.
public struct DeclaredSize: Sendable, Equatable {
    /// The format the magic bytes name.
    public let format: ImageFormat
    /// The declared width (before EXIF orientation), px.
    public let width: Int
    /// The declared height, px.
    public let height: Int

    /// The default limit on declared pixels (`pixel_limit`): 100 megapixels. Photos that declare
    /// more are refused from the header.
    public static let defaultPixelLimit = 100_000_000

    /// Declared pixels.
    public var pixels: Int { width * height }

    /// A size.
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The declared size of `bytes`, or nil when the format is not allowed or no size can be read
    /// (the decoder then refuses the file quickly).
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard case .format(let format) = FormatSniffer.sniff(bytes) else { return nil }
        guard let (width, height) = format.profile.declaredSize(bytes), width > 0, height > 0 else { return nil }
        self.init(format: format, width: width, height: height)
    }

    /// The first SOF segment's size, walking marker segments (at most 100,000) from SOI.
    static func jpeg(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        var position = 2, segments = 0
        while position + 9 < bytes.count, segments < 100_000 {
            guard bytes[position] == 0xFF else { return nil }
            let marker = bytes[position + 1]
            if marker == 0xFF { position += 1; continue }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(bytes[position + 7]) << 8 | Int(bytes[position + 8]), Int(bytes[position + 5]) << 8 | Int(bytes[position + 6]))
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            position += 2 + length
            segments += 1
        }
        return nil
    }

    /// IHDR's size.
    static func png(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 24 else { return nil }
        func word(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        return (word(16), word(20))
    }

    /// The VP8X canvas, or the first VP8 or VP8L bitstream's size.
    static func webp(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 30 else { return nil }
        func little(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let type = String(decoding: bytes[12..<16], as: UTF8.self)
        switch type {
        case "VP8X": return (little(24, 3) + 1, little(27, 3) + 1)
        case "VP8 ": return (little(26, 2) & 0x3FFF, little(28, 2) & 0x3FFF)
        case "VP8L": let bits = little(21, 4); return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        default: return nil
        }
    }
}
