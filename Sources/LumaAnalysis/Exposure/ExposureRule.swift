/// The thresholds of the exposure check, from `photo-validator tune --check exposure`.
///
/// A photo is `too_dark` when even its brightest part is dark: its 95th luma percentile is under
/// `darkBrightest` (a lamp or a window alone does not rescue it, a dim but readable room passes).
/// It is `overexposed` when even its darker part is bright (`p5` at least `brightDarkest`) or when
/// `clippedShare` of the frame is clipped to white: a bright window in a well-exposed room clips
/// far less than that.
public struct ExposureRule: Sendable, Equatable, Codable {
    /// Whether the check runs (`exposure.check`).
    public var enabled: Bool = true
    /// A photo whose 95th luma percentile is under this is too dark.
    public var darkBrightest: Int = 40
    /// A photo whose 5th luma percentile is at least this is overexposed.
    public var brightDarkest: Int = 170
    /// A photo with at least this share of clipped samples is overexposed.
    public var clippedShare: Double = 0.5

    /// The built-in defaults.
    public init() {}

    /// The verdict on `statistics`.
    public func verdict(on statistics: ExposureStatistics) -> ExposureVerdict {
        if statistics.p95 < darkBrightest { return .tooDark }
        if statistics.p5 >= brightDarkest || statistics.highlightShare >= clippedShare { return .overexposed }
        return .usable
    }
}
