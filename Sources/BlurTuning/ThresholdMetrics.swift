/// A confusion matrix with its derived rates, as the tuning report shows them.
public struct ThresholdMetrics: Sendable, Equatable, Codable {
    /// The counts.
    public let matrix: ConfusionMatrix
    /// Precision of "blurry".
    public let precision: Double
    /// Recall of "blurry".
    public let recall: Double
    /// F1 of "blurry".
    public let f1: Double
    /// Balanced accuracy.
    public let balancedAccuracy: Double

    /// The metrics of `matrix`.
    public init(_ matrix: ConfusionMatrix) {
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
