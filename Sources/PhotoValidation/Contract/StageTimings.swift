/// Milliseconds spent in each stage of one validation.
public struct StageTimings: Sendable, Codable, Equatable {
    /// Reading the header (format, size, orientation).
    public var header: Double = 0
    /// Decoding pixels in libvips (including shrink-on-load).
    public var decode: Double = 0
    /// Grey conversion and resampling to the analysis scale.
    public var luma: Double = 0
    /// The Laplacian variance.
    public var blur: Double = 0
    /// Making the preview JPEG for the content check, when it ran.
    public var contentPreview: Double?
    /// The content check (cache, queue, provider calls and retries), when it ran.
    public var content: Double?
    /// Everything, end to end.
    public var total: Double = 0

    /// Creates zero timings.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case header, decode, luma, blur
        case contentPreview = "content_preview"
        case content, total
    }
}
