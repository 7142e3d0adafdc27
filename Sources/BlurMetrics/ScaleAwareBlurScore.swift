/// The blur score measured where a photo's detail is: on the analysis plane, or on a finer plane of
/// the same photo when resampling to the analysis plane has lost most of the detail the finer one holds.
///
/// Area resampling to the analysis scale keeps what a photo shows at that scale, but a pattern of
/// a few pixels' period (the gateway's 4 px grid, slats, screens, fabric) folds to two-pixel
/// alternation there, which the denoising smoothing removes and the noise estimate takes for noise:
/// the analysis plane calls it flat. When the analysis plane keeps less than `lostDetailRatio` of
/// the gradient energy of the finer plane (`LumaPlane.gradientEnergy`), its few remaining edges are
/// what aliasing left, so the finer plane is judged instead: its score, by the same measure, says
/// whether the detail is sharp where it is. A blurred photo holds no detail the analysis plane
/// lost, and its finer plane is blurrier still (edge widths grow with the scale).
public struct ScaleAwareBlurScore: Sendable, Equatable {
    /// The plane whose score decides.
    public enum Plane: String, Sendable, Equatable {
        /// The analysis plane.
        case analysis
        /// The finer plane.
        case finer
    }

    /// The deciding score.
    public let score: Double
    /// The score of the analysis plane.
    public let analysisScore: Double
    /// The score of the finer plane, when it was measured.
    public let finerScore: Double?
    /// The share of the finer plane's gradient energy the analysis plane kept, when compared.
    public let retainedDetail: Double?
    /// The plane whose score decides.
    public let plane: Plane

    /// Below this share of the finer plane's gradient energy kept, the analysis plane has lost the
    /// photo's detail.
    public static let lostDetailRatio = 0.25
    /// A finer plane with less gradient energy than this per pixel (8-bit levels squared) holds no
    /// detail worth looking for: a flat or blurred picture, whatever its ratio.
    public static let minimumFinerEnergyPerPixel = 4.0

    /// Scores `analysis` (`OrientedDetail.score(of:strongestShare:coarseWeight:)`) and, when that is
    /// under `finerBelow` and a `finer` plane is given, compares their gradient energies and judges the
    /// finer plane when the analysis plane lost the detail. A score at or above `finerBelow` stands
    /// as it is: pass `.infinity` to always compare. `crossingCorrected` chooses the score that
    /// judges each tile by the directions of its own edges (`OrientedDetail.crossingCorrectedScore`).
    public static func measure(analysis: LumaPlane, finer: LumaPlane?, strongestShare: Double, coarseWeight: Double = 0,
                               finerBelow: Double = .infinity, crossingCorrected: Bool = false) -> ScaleAwareBlurScore {
        let analysisScore = OrientedDetail.score(of: analysis, strongestShare: strongestShare, coarseWeight: coarseWeight,
                                                 crossingCorrected: crossingCorrected)
        return measure(analysis: analysis, analysisScore: analysisScore, finer: finer, strongestShare: strongestShare, coarseWeight: coarseWeight,
                       finerBelow: finerBelow, crossingCorrected: crossingCorrected)
    }

    /// `measure(analysis:finer:strongestShare:coarseWeight:finerBelow:crossingCorrected:)` with the
    /// analysis plane's `OrientedDetail.score(of:strongestShare:coarseWeight:crossingCorrected:)`
    /// already at hand (made from its parts on two threads).
    public static func measure(analysis: LumaPlane, analysisScore: Double, finer: LumaPlane?, strongestShare: Double, coarseWeight: Double = 0,
                               finerBelow: Double = .infinity, crossingCorrected: Bool = false) -> ScaleAwareBlurScore {
        guard let finer, analysisScore < finerBelow else {
            return ScaleAwareBlurScore(score: analysisScore, analysisScore: analysisScore, finerScore: nil, retainedDetail: nil, plane: .analysis)
        }
        let finerEnergy = finer.gradientEnergy()
        let retained = finerEnergy > 0 ? analysis.gradientEnergy() / finerEnergy : 1
        let perPixel = finerEnergy / Double(finer.width * finer.height)
        guard retained < lostDetailRatio, perPixel >= minimumFinerEnergyPerPixel else {
            return ScaleAwareBlurScore(score: analysisScore, analysisScore: analysisScore, finerScore: nil, retainedDetail: retained, plane: .analysis)
        }
        let finerScore = OrientedDetail.score(of: finer, strongestShare: strongestShare, coarseWeight: coarseWeight,
                                              crossingCorrected: crossingCorrected)
        return ScaleAwareBlurScore(score: finerScore, analysisScore: analysisScore, finerScore: finerScore, retainedDetail: retained, plane: .finer)
    }
}
