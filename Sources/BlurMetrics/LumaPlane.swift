/// A packed 8-bit luma image, row after row, with no padding.
public struct LumaPlane: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` samples.
    public var pixels: [UInt8]

    /// Creates a plane from packed samples; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "a luma plane needs width * height samples")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
