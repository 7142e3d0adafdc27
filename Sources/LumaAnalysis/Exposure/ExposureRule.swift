/// The thresholds of the exposure check, measured on the labelled exposure set
/// (`datasets/make-exposure-set`, testdata/EXPOSURE.md).
///
/// A photo is `too_dark` when even its brightest tenth is dark: its 90th luma percentile is under
/// `darkP90` (a lamp or a window alone does not rescue it; a dim but readable room passes). It is
/// `overexposed` when the picture lost its tones: at least `clippedShare` of the frame is clipped
/// to white (luma 250 or more) *and* its darkest tenth was lifted too, its 10th luma percentile
/// at least `washedOutP10`. A white wall, a bright sky or a white backdrop clips without
/// lifting the rest: a subject in front of it, or the furniture and floor of a bright room, keep
/// their shadows and mid-tones, so a tenth of the frame stays darker than a washed-out photo's.
/// The percentile is the one `tune --check exposure` chose on the tuning part (issue 48): the most
/// overexposed photos caught with no usable one flagged (real overexposed brackets p10 90 and 98,
/// usable bright photos clipped over a quarter at most about 82 but for one +1 EV white bathroom, 129).
public struct ExposureRule: Sendable, Equatable, Codable {
    /// Whether the check runs (`exposure.check`).
    public var enabled: Bool = true
    /// A photo whose 90th luma percentile is under this is too dark.
    public var darkP90: Int = 40
    /// A photo with at least this share of samples clipped to white is overexposed, when its
    /// darkest tenth is lifted too (`washedOutP10`).
    public var clippedShare: Double = 0.25
    /// A clipped photo (`clippedShare`) is overexposed only when its 10th luma percentile is at
    /// least this: its shadows went pale with its highlights.
    public var washedOutP10: Int = 86

    /// The built-in defaults.
    public init() {}

    /// The verdict on `statistics`.
    public func verdict(on statistics: ExposureStatistics) -> ExposureVerdict {
        if statistics.p90 < darkP90 { return .tooDark }
        if statistics.highlightShare >= clippedShare && statistics.p10 >= washedOutP10 { return .overexposed }
        return .usable
    }
}
