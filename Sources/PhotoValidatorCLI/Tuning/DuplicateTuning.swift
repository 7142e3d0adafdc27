import LumaAnalysis

/// Chooses and measures the duplicate rule on labelled pairs: the rule with the best balanced
/// accuracy whose false-duplicate rate on the tuning part is at most `maximumFalseRate`, reported
/// on the held part, per kind of pair and with each source left out in turn.
enum DuplicateTuning {
    /// One labelled pair with what its fingerprints have in common.
    struct Scored: Sendable {
        /// Whether the two are one photo.
        let duplicate: Bool
        /// How the pair was made.
        let kind: String
        /// Its source.
        let source: String
        /// Whether it is held aside.
        let held: Bool
        /// The hash distance and feature agreement of the pair.
        let evidence: DuplicateEvidence
        /// Whether the new photo's `DuplicateScreen` under the current rule passes the earlier one to the full comparison.
        var admitted = true
        /// The earlier photo's descriptors the screen finds near one of the new photo's (`DuplicateScreen.sharedFeatures`).
        var sharedFeatures = 0
    }

    /// The false-duplicate rate the choice may not exceed (the bar).
    static let maximumFalseRate = 0.005

    /// The figures of a rule on some pairs.
    struct Figures: Sendable {
        /// Distinct pairs called duplicates, over distinct pairs.
        let falseRate: Double
        /// Duplicates found, over duplicates.
        let recall: Double
        /// The mean of recall and 1 - false rate.
        var balancedAccuracy: Double { (recall + 1 - falseRate) / 2 }
    }

    /// The figures of `rule` on `pairs`.
    static func figures(_ pairs: [Scored], rule: DuplicateRule) -> Figures {
        var distinct = 0, falseDuplicates = 0, duplicates = 0, found = 0
        for pair in pairs {
            let called = rule.isDuplicate(pair.evidence)
            if pair.duplicate {
                duplicates += 1
                if called { found += 1 }
            } else {
                distinct += 1
                if called { falseDuplicates += 1 }
            }
        }
        return Figures(falseRate: distinct == 0 ? 0 : Double(falseDuplicates) / Double(distinct),
                       recall: duplicates == 0 ? 1 : Double(found) / Double(duplicates))
    }

    /// The rules tried: hash distances 0 to 8, 4 to 32 feature matches, detail correlations 0.40 to 0.90.
    static let candidates: [DuplicateRule] = (0...8).flatMap { distance in
        [4, 5, 6, 8, 10, 12, 16, 20, 26, 32].flatMap { inliers in
            stride(from: 40, through: 90, by: 1).map { correlation in
                DuplicateRule(maximumDistance: distance, minimumInliers: inliers, minimumCorrelation: Double(correlation) / 100)
            }
        }
    }

    /// The candidate with the best balanced accuracy on `pairs` among those with at most
    /// `maximumFalseRate` false duplicates. Many rules tie on a clean tuning part; of those the
    /// strictest on the aligned detail wins (a photo refused as a copy of another shot costs its
    /// user more than a copy let through), then the widest hash distance (the path for photos whose
    /// features cannot be aligned), then the fewest matches.
    static func recommended(on pairs: [Scored]) -> DuplicateRule {
        var best: (rule: DuplicateRule, accuracy: Double)?
        for rule in candidates {
            let figures = figures(pairs, rule: rule)
            guard figures.falseRate <= maximumFalseRate else { continue }
            guard let current = best else {
                best = (rule, figures.balancedAccuracy)
                continue
            }
            if figures.balancedAccuracy > current.accuracy + 1e-12
                || (figures.balancedAccuracy >= current.accuracy - 1e-12 && isPreferred(rule, over: current.rule)) {
                best = (rule, figures.balancedAccuracy)
            }
        }
        return best?.rule ?? DuplicateRule(maximumDistance: 0, minimumInliers: 256, minimumCorrelation: 1)
    }

    /// The tie-break of `recommended(on:)`: higher correlation, then larger distance, then fewer matches.
    private static func isPreferred(_ rule: DuplicateRule, over other: DuplicateRule) -> Bool {
        if rule.minimumCorrelation != other.minimumCorrelation { return rule.minimumCorrelation > other.minimumCorrelation }
        if rule.maximumDistance != other.maximumDistance { return rule.maximumDistance > other.maximumDistance }
        return rule.minimumInliers < other.minimumInliers
    }

    /// The area under the ROC curve of `score` (larger: more alike) for telling duplicates from distinct pairs.
    static func rocAUC(_ pairs: [Scored], score: (DuplicateEvidence) -> Double) -> Double? {
        let duplicates = pairs.filter(\.duplicate).map { score($0.evidence) }.sorted()
        let distinct = pairs.filter { !$0.duplicate }.map { score($0.evidence) }.sorted()
        guard !duplicates.isEmpty, !distinct.isEmpty else { return nil }
        // Counted by merging the two sorted lists: wins plus half the ties.
        var wins = 0.0, below = 0, equalStart = 0
        for d in duplicates {
            while below < distinct.count, distinct[below] < d { below += 1 }
            equalStart = below
            var equalEnd = equalStart
            while equalEnd < distinct.count, distinct[equalEnd] == d { equalEnd += 1 }
            wins += Double(below) + Double(equalEnd - equalStart) / 2
        }
        return wins / Double(duplicates.count * distinct.count)
    }
}
