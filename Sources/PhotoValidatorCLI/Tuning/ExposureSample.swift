import LumaAnalysis

/// One labelled photo of the exposure set with the figures the validator measured on it.
struct ExposureSample: Sendable {
    /// The photo's path, for the report.
    let path: String
    /// The label.
    let label: ExposureVerdict
    /// Whether thresholds may be chosen on it (`tune`) or it is held aside (`held`).
    let held: Bool
    /// The source it comes from, for leave-one-source-out.
    let source: String
    /// The exposure figures of its analysis plane.
    let statistics: ExposureStatistics
}
