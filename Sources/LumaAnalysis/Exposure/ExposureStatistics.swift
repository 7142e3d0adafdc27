import BlurMetrics

/// The exposure figures of one analysis plane: luma percentiles and the shares of crushed and
/// clipped samples (`details.exposure`).
public struct ExposureStatistics: Sendable, Equatable, Codable {
    /// The mean luma (0 to 255, sRGB-encoded as decoded).
    public var mean: Double
    /// The 1st percentile of luma.
    public var p1: Int
    /// The 5th percentile.
    public var p5: Int
    /// The 10th percentile: the overexposed rule's mark of lifted shadows (the darkest tenth).
    public var p10: Int
    /// The median.
    public var p50: Int
    /// The 90th percentile: what the too-dark rule judges (the lit part of the scene).
    public var p90: Int
    /// The 95th percentile.
    public var p95: Int
    /// The 99th percentile: the brightest part of the scene, a lamp or a window when there is one.
    public var p99: Int
    /// The share of samples at most `ExposureStatistics.shadowLevel` (crushed to black).
    public var shadowShare: Double
    /// The share of samples at least `ExposureStatistics.highlightLevel` (clipped to white).
    public var highlightShare: Double

    /// Luma at or below which a sample counts as crushed to black.
    public static let shadowLevel = 16
    /// Luma at or above which a sample counts as clipped to white.
    public static let highlightLevel = 250

    /// The figures of `histogram`.
    public init(_ histogram: LumaHistogram) {
        mean = histogram.mean
        p1 = histogram.percentile(1)
        p5 = histogram.percentile(5)
        p10 = histogram.percentile(10)
        p50 = histogram.percentile(50)
        p90 = histogram.percentile(90)
        p95 = histogram.percentile(95)
        p99 = histogram.percentile(99)
        shadowShare = histogram.share(atMost: Self.shadowLevel)
        highlightShare = histogram.share(atLeast: Self.highlightLevel)
    }

    /// The figures of `plane`, every sample counted (`LumaHistogram.init(_:)`).
    public init(of plane: LumaPlane) {
        self.init(LumaHistogram(plane))
    }

    enum CodingKeys: String, CodingKey {
        case mean, p1, p5, p10, p50, p90, p95, p99
        case shadowShare = "shadow_share"
        case highlightShare = "highlight_share"
    }
}
