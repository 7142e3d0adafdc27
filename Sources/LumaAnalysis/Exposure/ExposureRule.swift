/// The thresholds of the exposure check, measured on the labelled exposure set
/// (`scripts/make-exposure-set`, testdata/EXPOSURE.md).
///
/// A photo is `too_dark` when even its brightest tenth is dark: its 90th luma percentile is under
/// `darkP90` (a lamp or a window alone does not rescue it; a dim but readable room passes). It is
/// `overexposed` when at least `clippedShare` of the frame is clipped to white (luma 250 or more):
/// a bright window in a well-exposed room clips far less than that. Both are the middle of the
/// gap between the labelled classes (p90: too dark at most 35, usable from 45; clipped: usable at
/// most 0.196, overexposed from 0.298), chosen by the worst left-out source.
public struct ExposureRule: Sendable, Equatable, Codable {
    /// Whether the check runs (`exposure.check`).
    public var enabled: Bool = true
    /// A photo whose 90th luma percentile is under this is too dark.
    public var darkP90: Int = 40
    /// A photo with at least this share of samples clipped to white is overexposed.
    public var clippedShare: Double = 0.25

    /// The built-in defaults.
    public init() {}

    /// The verdict on `statistics`.
    public func verdict(on statistics: ExposureStatistics) -> ExposureVerdict {
        if statistics.p90 < darkP90 { return .tooDark }
        if statistics.highlightShare >= clippedShare { return .overexposed }
        return .usable
    }
}
