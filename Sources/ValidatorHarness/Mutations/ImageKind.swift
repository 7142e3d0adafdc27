/// The container a photo's first bytes name, as the mutations tell them apart.
package enum ImageKind: String, Sendable, CaseIterable {
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// PNG (its 8-byte signature).
    case png
    /// WebP (`RIFF....WEBP`).
    case webp
    /// HEIC or another ISO-BMFF file (`ftyp` at offset 4).
    case heic

    /// The kind `bytes` start with, or nil.
    package init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else if bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) {
            self = .heic
        } else {
            return nil
        }
    }

    /// The file name extension a file of this kind is written with.
    package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
