import PhotoValidation

/// What `photo-validator tune` found, per photo type.
package struct TuningReport: Sendable, Codable {
    /// The findings for one photo type.
    package struct TypeReport: Sendable, Codable {
        /// The photo type.
        package let photoType: PhotoType
        /// How the current and the recommended thresholds do on the held-aside photos, which
        /// the recommendation never saw.
        package struct HeldAside: Sendable, Codable {
            /// Sharp held-aside photos.
            package let sharp: Int
            /// Blurry held-aside photos.
            package let blurry: Int
            /// ROC AUC on the held-aside photos; nil unless both labels are present.
            package let rocAUC: Double?
            /// The current threshold on them.
            package let current: ThresholdMetrics
            /// The recommended threshold on them.
            package let recommended: ThresholdMetrics
            /// Held-aside photos the recommended threshold gets wrong, worst first.
            package let misjudged: [ScoredPhoto]

            enum CodingKeys: String, CodingKey {
                case sharp, blurry, current, recommended, misjudged
                case rocAUC = "roc_auc"
            }
        }

        /// Sharp photos scored (tuning part).
        package let sharp: Int
        /// Blurry photos scored.
        package let blurry: Int
        /// ROC AUC of "blurry" detection by the blur score; nil unless both labels are present.
        package let rocAUC: Double?
        /// The threshold configured now, and how it does.
        package let current: ThresholdMetrics
        /// The recommended threshold, and how it does.
        package let recommended: ThresholdMetrics
        /// Every candidate threshold, increasing.
        package let candidates: [ThresholdMetrics]
        /// Photos the recommended threshold gets wrong, worst first.
        package let misjudged: [ScoredPhoto]
        /// Every scored photo of the tuning part, by score.
        package let photos: [ScoredPhoto]
        /// The held-aside part, when the set has one.
        package let held: HeldAside?

        /// Builds the report for `photos` of `photoType`, judged against `currentThreshold`; the
        /// recommendation is chosen on `photos` only and then measured on `heldAside`.
        package init(photoType: PhotoType, photos: [ScoredPhoto], heldAside: [ScoredPhoto] = [], currentThreshold: Double,
                    objective: ThresholdAnalysis.Objective) {
            let analysis = ThresholdAnalysis(photos: photos)
            let recommended = analysis.recommended(objective) ?? ConfusionMatrix(threshold: currentThreshold, photos: photos)
            self.photoType = photoType
            sharp = photos.filter { $0.label == .sharp }.count
            blurry = photos.filter { $0.label == .blurry }.count
            rocAUC = analysis.rocAUC
            current = ThresholdMetrics(ConfusionMatrix(threshold: currentThreshold, photos: photos))
            self.recommended = ThresholdMetrics(recommended)
            candidates = analysis.candidates.map(ThresholdMetrics.init)
            misjudged = analysis.misjudged(at: recommended)
            self.photos = analysis.photos
            if heldAside.isEmpty {
                held = nil
            } else {
                let heldAnalysis = ThresholdAnalysis(photos: heldAside)
                let heldRecommended = ConfusionMatrix(threshold: recommended.threshold, photos: heldAside)
                held = HeldAside(
                    sharp: heldAside.filter { $0.label == .sharp }.count,
                    blurry: heldAside.filter { $0.label == .blurry }.count,
                    rocAUC: heldAnalysis.rocAUC,
                    current: ThresholdMetrics(ConfusionMatrix(threshold: currentThreshold, photos: heldAside)),
                    recommended: ThresholdMetrics(heldRecommended),
                    misjudged: heldAnalysis.misjudged(at: heldRecommended)
                )
            }
        }

        enum CodingKeys: String, CodingKey {
            case photoType = "photo_type", sharp, blurry
            case rocAUC = "roc_auc"
            case current, recommended, candidates, misjudged, photos
            case held = "held_aside"
        }
    }

    /// The analysis scale the scores were measured at.
    package let analysisSize: String
    /// How the recommendation was chosen.
    package let objective: String
    /// Photos that could not be scored, with the reason.
    package let unscored: [String: String]
    /// One report per photo type present.
    package let types: [TypeReport]

    /// Creates a report.
    package init(analysisSize: String, objective: String, unscored: [String: String], types: [TypeReport]) {
        self.analysisSize = analysisSize
        self.objective = objective
        self.unscored = unscored
        self.types = types
    }

    enum CodingKeys: String, CodingKey {
        case analysisSize = "analysis_size", objective, unscored, types
    }
}
