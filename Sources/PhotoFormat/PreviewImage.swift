/// A small JPEG made from a photo for a content classifier: oriented, resized, with no metadata.
public struct PreviewImage: Sendable, Equatable {
    /// The JPEG bytes (baseline, sRGB, no EXIF, XMP, IPTC or ICC block).
    public let jpeg: [UInt8]
    /// Width in pixels, as displayed (EXIF orientation applied).
    public let width: Int
    /// Height in pixels, as displayed.
    public let height: Int

    /// Creates a preview description.
    public init(jpeg: [UInt8], width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }

    /// Width times height.
    public var pixelCount: Int { width * height }
}
