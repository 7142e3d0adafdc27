import PhotoValidation

/// Counts of "blurry" detection at one threshold (a photo is called blurry when its score is below it).
package struct ConfusionMatrix: Sendable, Equatable, Codable {
    /// The threshold.
    package let threshold: Double
    /// Blurry photos called blurry.
    package let truePositives: Int
    /// Sharp photos called blurry (users asked to retake a good photo).
    package let falsePositives: Int
    /// Sharp photos passed.
    package let trueNegatives: Int
    /// Blurry photos passed (blur reaching the designer).
    package let falseNegatives: Int

    /// Counts the calls on `photos` at `threshold`.
    package init(threshold: Double, photos: [ScoredPhoto]) {
        var counts = (tp: 0, fp: 0, tn: 0, fn: 0)
        for photo in photos {
            switch (photo.label, photo.score < threshold) {
            case (.blurry, true): counts.tp += 1
            case (.blurry, false): counts.fn += 1
            case (.sharp, true): counts.fp += 1
            case (.sharp, false): counts.tn += 1
            }
        }
        self.threshold = threshold
        truePositives = counts.tp
        falsePositives = counts.fp
        trueNegatives = counts.tn
        falseNegatives = counts.fn
    }

    /// Of the photos called blurry, the share that are blurry (1 when none is called).
    package var precision: Double { ratio(truePositives, truePositives + falsePositives, empty: 1) }
    /// Of the blurry photos, the share called blurry.
    package var recall: Double { ratio(truePositives, truePositives + falseNegatives, empty: 1) }
    /// Of the sharp photos, the share passed.
    package var specificity: Double { ratio(trueNegatives, trueNegatives + falsePositives, empty: 1) }
    /// The harmonic mean of precision and recall.
    package var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    /// The mean of recall and specificity: accuracy that does not favour the larger class.
    package var balancedAccuracy: Double { (recall + specificity) / 2 }

    private func ratio(_ numerator: Int, _ denominator: Int, empty: Double) -> Double {
        denominator == 0 ? empty : Double(numerator) / Double(denominator)
    }

    enum CodingKeys: String, CodingKey {
        case threshold
        case truePositives = "true_positives"
        case falsePositives = "false_positives"
        case trueNegatives = "true_negatives"
        case falseNegatives = "false_negatives"
    }
}
