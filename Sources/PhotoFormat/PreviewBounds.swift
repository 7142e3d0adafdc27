/// The size and quality of the preview JPEG a content classifier sees: what the daemon asks a
/// decode for, carried to the worker that encodes it (`PreviewEncoder` there), without libvips.
public struct PreviewBounds: Sendable, Equatable, Codable {
    /// Anthropic's vision models downscale anything with a longer edge than this.
    public static let defaultMaximumLongEdge = 1568
    /// About 1.15 megapixels, the largest image the models look at without downscaling.
    public static let defaultMaximumPixels = 1_150_000
    /// The JPEG quality of a preview unless told otherwise.
    public static let defaultQuality = 85

    /// The longest edge of the preview, in pixels.
    public let maximumLongEdge: Int
    /// The largest pixel count of the preview.
    public let maximumPixels: Int
    /// JPEG quality, 1 to 100.
    public let quality: Int

    /// Bounds for a preview; the defaults are what the content check sends.
    public init(maximumLongEdge: Int = PreviewBounds.defaultMaximumLongEdge,
                maximumPixels: Int = PreviewBounds.defaultMaximumPixels,
                quality: Int = PreviewBounds.defaultQuality) {
        precondition(maximumLongEdge >= 16 && maximumPixels >= 256 && (1...100).contains(quality), "a preview needs a sensible size and quality")
        self.maximumLongEdge = maximumLongEdge
        self.maximumPixels = maximumPixels
        self.quality = quality
    }
}
