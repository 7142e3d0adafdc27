/// The size and sample layout of decoded 8-bit pixels.
public struct PixelGeometry: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Samples per pixel: 1 grey, 2 grey and alpha, 3 RGB, 4 RGBA.
    public let bands: Int

    /// Creates a geometry.
    public init(width: Int, height: Int, bands: Int) {
        self.width = width
        self.height = height
        self.bands = bands
    }
}
