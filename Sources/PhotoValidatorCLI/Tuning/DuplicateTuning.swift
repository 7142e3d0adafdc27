/// Chooses and measures the duplicate check's fingerprint distance on labelled pairs: the largest
/// distance whose false-duplicate rate on the tuning part is at most `maximumFalseRate`, reported
/// on the held part, per kind of pair and with each source left out in turn.
enum DuplicateTuning {
    /// One labelled pair with the distance between its fingerprints.
    struct Scored: Sendable {
        /// Whether the two are one photo.
        let duplicate: Bool
        /// How the pair was made.
        let kind: String
        /// Its source.
        let source: String
        /// Whether it is held aside.
        let held: Bool
        /// The differing fingerprint bits.
        let distance: Int
    }

    /// The false-duplicate rate the choice may not exceed (the bar).
    static let maximumFalseRate = 0.005

    /// The figures of threshold `maximum` on `pairs`.
    struct Figures: Sendable {
        /// Distinct pairs called duplicates, over distinct pairs.
        let falseRate: Double
        /// Duplicates found, over duplicates.
        let recall: Double
        /// The mean of recall and 1 - false rate.
        var balancedAccuracy: Double { (recall + 1 - falseRate) / 2 }
    }

    /// The figures of calling pairs within `maximum` bits duplicates.
    static func figures(_ pairs: [Scored], maximum: Int) -> Figures {
        let distinct = pairs.filter { !$0.duplicate }, duplicates = pairs.filter(\.duplicate)
        let falseRate = distinct.isEmpty ? 0 : Double(distinct.filter { $0.distance <= maximum }.count) / Double(distinct.count)
        let recall = duplicates.isEmpty ? 1 : Double(duplicates.filter { $0.distance <= maximum }.count) / Double(duplicates.count)
        return Figures(falseRate: falseRate, recall: recall)
    }

    /// The largest distance (0 to 63) whose false-duplicate rate on `pairs` is at most `maximumFalseRate`.
    static func recommended(on pairs: [Scored]) -> Int {
        (0...63).last { figures(pairs, maximum: $0).falseRate <= maximumFalseRate } ?? 0
    }

    /// The area under the ROC curve of the distance for telling duplicates (smaller) from distinct pairs.
    static func rocAUC(_ pairs: [Scored]) -> Double? {
        let duplicates = pairs.filter(\.duplicate).map(\.distance), distinct = pairs.filter { !$0.duplicate }.map(\.distance)
        guard !duplicates.isEmpty, !distinct.isEmpty else { return nil }
        var wins = 0.0
        for d in duplicates {
            for n in distinct { wins += d < n ? 1 : d == n ? 0.5 : 0 }
        }
        return wins / Double(duplicates.count * distinct.count)
    }
}
