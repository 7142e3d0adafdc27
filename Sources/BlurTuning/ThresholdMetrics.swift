/// A confusion matrix with its derived rates, as the tuning report shows them.
package struct ThresholdMetrics: Sendable, Equatable, Codable {
    /// The counts.
    package let matrix: ConfusionMatrix
    /// Precision of "blurry".
    package let precision: Double
    /// Recall of "blurry".
    package let recall: Double
    /// F1 of "blurry".
    package let f1: Double
    /// Balanced accuracy.
    package let balancedAccuracy: Double

    /// The metrics of `matrix`.
    package init(_ matrix: ConfusionMatrix) {
        self.matrix = matrix
        precision = matrix.precision
        recall = matrix.recall
        f1 = matrix.f1
        balancedAccuracy = matrix.balancedAccuracy
    }

    enum CodingKeys: String, CodingKey {
        case matrix, precision, recall, f1
        case balancedAccuracy = "balanced_accuracy"
    }
}
