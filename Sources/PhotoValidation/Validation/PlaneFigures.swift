import BlurMetrics
import BlurModel
import LumaAnalysis

/// The figures of one decode that the verdict reads, kept apart from the thresholds that judge
/// them (`PhotoMeasurements`): what a re-run with other thresholds needs instead of decoding again.
///
/// One threshold shapes them: a score at or above the blur threshold measured with is never
/// compared with the finer plane (`ScaleAwareBlurScore`), so `judged(below:)` answers nil for a
/// higher threshold that would have asked for that comparison.
public struct PlaneFigures: Sendable, Codable, Equatable {
    /// The variance of the Laplacian of the analysis plane.
    public var laplacianVariance: Double
    /// The analysis plane's score.
    public var analysisScore: Double
    /// The finer plane's score, when it decides (the analysis plane lost the photo's detail).
    public var finerScore: Double?
    /// The share of the finer plane's gradient energy the analysis plane kept, when compared.
    public var retainedDetail: Double?
    /// True when the analysis plane was compared with a finer one, or there was none, so the
    /// figures hold below any threshold.
    public var compared: Bool
    /// Width of the analysis plane.
    public var analysisWidth: Int
    /// Height of the analysis plane.
    public var analysisHeight: Int
    /// The decode scale used.
    public var decodeScale: Double
    /// The exposure figures of the analysis plane.
    public var exposure: ExposureStatistics
    /// The analysis plane's fingerprint (base64); nil when none was asked for.
    public var fingerprint: String?
    /// The blur model's probability of blur on the analysis plane; nil when the plane is under one tile.
    public var blurProbability: Double?
    /// The tiles the blur model evaluated, for the report's map; nil when none.
    public var blurTiles: [BlurTileEstimate]?

    /// The figures of `measurement`, taken with `measuredBelow` as the blur threshold.
    public init(_ measurement: PlaneMeasurement, measuredBelow: Double) {
        laplacianVariance = measurement.laplacianVariance
        analysisScore = measurement.scales.analysisScore
        finerScore = measurement.scales.finerScore
        retainedDetail = measurement.scales.retainedDetail
        compared = measurement.scales.analysisScore < measuredBelow || !measurement.hasFinerPlane
        analysisWidth = measurement.analysisWidth
        analysisHeight = measurement.analysisHeight
        decodeScale = measurement.decodeScale
        exposure = measurement.exposure
        fingerprint = measurement.fingerprint?.base64
        blurProbability = measurement.blurModel?.probability
        blurTiles = measurement.blurModel?.tiles
    }

    /// The deciding score: the finer plane's when it decides, else the analysis plane's.
    public var score: Double { finerScore ?? analysisScore }

    /// These figures as a measurement with `threshold` would have found them, or nil when they
    /// cannot tell: the analysis score is under `threshold` but was never compared with the finer plane.
    public func judged(below threshold: Double) -> PlaneFigures? {
        guard analysisScore >= threshold else { return compared ? self : nil }
        var figures = self
        figures.finerScore = nil
        figures.retainedDetail = nil
        return figures
    }
}
