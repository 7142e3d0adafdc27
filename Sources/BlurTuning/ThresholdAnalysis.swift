import Foundation
import PhotoValidation

/// How well a blur threshold separates labelled photos, and which threshold to recommend.
package struct ThresholdAnalysis: Sendable {
    /// How the recommended threshold is chosen.
    package enum Objective: Sendable, Equatable {
        /// The threshold with the highest balanced accuracy (ties: the lowest threshold).
        case balancedAccuracy
        /// The lowest threshold whose recall of blurry photos is at least this.
        case recall(Double)
    }

    /// The scored photos, sorted by score.
    package let photos: [ScoredPhoto]
    /// Every candidate threshold's confusion matrix, in increasing threshold order.
    package let candidates: [ConfusionMatrix]

    /// Analyses `photos`; candidates are the midpoints between consecutive distinct scores (and
    /// one below the lowest and above the highest score).
    package init(photos: [ScoredPhoto]) {
        self.photos = photos.sorted { $0.score < $1.score }
        var scores: [Double] = []
        for score in self.photos.map(\.score) where scores.last != score {
            scores.append(score)
        }
        var thresholds: [Double] = []
        if let first = scores.first { thresholds.append(first - max(1e-6, abs(first) * 1e-6)) }
        for index in scores.indices.dropFirst() {
            thresholds.append((scores[index - 1] + scores[index]) / 2)
        }
        if let last = scores.last { thresholds.append(last + max(1e-6, abs(last) * 1e-6)) }
        candidates = thresholds.map { ConfusionMatrix(threshold: $0, photos: photos) }
    }

    /// The area under the ROC curve of "blurry" detection: the chance that a random blurry photo
    /// scores below a random sharp one (ties count half). 0.5 is chance, 1 is perfect; nil
    /// unless both labels are present.
    package var rocAUC: Double? {
        let blurry = photos.filter { $0.label == .blurry }.map(\.score)
        let sharp = photos.filter { $0.label == .sharp }.map(\.score).sorted()
        guard !blurry.isEmpty, !sharp.isEmpty else { return nil }
        var wins = 0.0
        for score in blurry {
            let above = sharp.count - upperBound(sharp, score)
            let ties = upperBound(sharp, score) - lowerBound(sharp, score)
            wins += Double(above) + Double(ties) / 2
        }
        return wins / Double(blurry.count * sharp.count)
    }

    /// The recommended threshold's confusion matrix for `objective`, or nil without candidates.
    package func recommended(_ objective: Objective = .balancedAccuracy) -> ConfusionMatrix? {
        switch objective {
        case .balancedAccuracy:
            return candidates.max { lhs, rhs in
                lhs.balancedAccuracy < rhs.balancedAccuracy || (lhs.balancedAccuracy == rhs.balancedAccuracy && lhs.threshold > rhs.threshold)
            }
        case .recall(let target):
            return candidates.first { $0.recall >= target }
        }
    }

    /// The photos `matrix` gets wrong, worst first (furthest from the threshold on a log scale).
    package func misjudged(at matrix: ConfusionMatrix) -> [ScoredPhoto] {
        let threshold = max(matrix.threshold, 1e-9)
        return photos.filter { ($0.label == .blurry) != ($0.score < matrix.threshold) }
            .sorted { abs(log(max($0.score, 1e-9) / threshold)) > abs(log(max($1.score, 1e-9) / threshold)) }
    }

    private func lowerBound(_ sorted: [Double], _ value: Double) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func upperBound(_ sorted: [Double], _ value: Double) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
