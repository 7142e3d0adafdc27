import LumaAnalysis

/// Chooses and measures the exposure check's thresholds on labelled samples: the 90th-percentile
/// threshold for `too_dark`, and the 10th percentile and clipped share for `overexposed`, each in the middle of the
/// widest interval with the best balanced accuracy on the tuning part, and reports the held part,
/// every left-out source and the mean-luma peer beside them.
enum ExposureTuning {
    /// A rule: how a sample is judged.
    struct Rule: Sendable {
        /// Its name in the report.
        let name: String
        /// The verdict on one sample's figures.
        let verdict: @Sendable (ExposureStatistics) -> ExposureVerdict
    }

    /// The rule of `exposure` (the validator's own).
    static func rule(_ exposure: ExposureRule, name: String) -> Rule {
        Rule(name: name) { exposure.verdict(on: $0) }
    }

    /// The rule before issue 48: overexposed on the clipped share alone, whatever the rest of the frame holds.
    static func clippedOnly(_ exposure: ExposureRule) -> Rule {
        Rule(name: "clipped share alone: p90 < \(exposure.darkP90), clipped >= \(exposure.clippedShare) (before)") { statistics in
            statistics.p90 < exposure.darkP90 ? .tooDark : statistics.highlightShare >= exposure.clippedShare ? .overexposed : .usable
        }
    }

    /// The published mean-luma rule: under 50 too dark, over 205 overexposed.
    static let meanLuma = Rule(name: "mean luma < 50 / > 205 (peer)") { statistics in
        statistics.mean < 50 ? .tooDark : statistics.mean > 205 ? .overexposed : .usable
    }

    /// The balanced accuracy of `rule` on `samples`: the mean recall of the labels present.
    static func balancedAccuracy(_ rule: Rule, on samples: [ExposureSample]) -> Double? {
        let recalls = ExposureVerdict.allCases.compactMap { label -> Double? in
            let ofLabel = samples.filter { $0.label == label }
            guard !ofLabel.isEmpty else { return nil }
            return Double(ofLabel.filter { rule.verdict($0.statistics) == label }.count) / Double(ofLabel.count)
        }
        return recalls.isEmpty ? nil : recalls.reduce(0, +) / Double(recalls.count)
    }

    /// Usable samples `rule` flags.
    static func usableFlagged(_ rule: Rule, on samples: [ExposureSample]) -> Int {
        samples.filter { $0.label == .usable && rule.verdict($0.statistics) != .usable }.count
    }

    /// The thresholds chosen on `samples`, as a rule over the defaults of `base`.
    static func recommended(on samples: [ExposureSample], base: ExposureRule) -> ExposureRule {
        var rule = base
        // too_dark against the rest, on the 90th percentile (integers 0 to 256).
        rule.darkP90 = Int(middleOfBest(candidates: (0...256).map(Double.init)) { threshold in
            split(samples, positive: .tooDark) { Double($0.p90) < threshold }
        }.rounded())
        // overexposed against usable, among what is not too dark: the 10th percentile among
        // photos clipped at the base share, then the clipped share with that percentile. A usable
        // photo refused costs more than a washed-out one let through (issue 48): the percentile
        // catches the most overexposed photos that flags no usable one (the fewest usable ones
        // flagged when none does), rather than the best balanced accuracy.
        let rest = samples.filter { $0.label != .tooDark }
        let overexposed = rest.filter { $0.label == .overexposed }, usable = rest.filter { $0.label == .usable }
        rule.washedOutP10 = Int(middleOfBest(candidates: (0...256).map(Double.init)) { threshold in
            let flags = { (sample: ExposureSample) in sample.statistics.highlightShare >= base.clippedShare && Double(sample.statistics.p10) >= threshold }
            let usableFlagged = usable.filter(flags).count
            guard usableFlagged == 0 else { return -Double(usableFlagged) }
            return overexposed.isEmpty ? 1 : Double(overexposed.filter(flags).count) / Double(overexposed.count)
        }.rounded())
        rule.clippedShare = (middleOfBest(candidates: stride(from: 0.0, through: 1.0, by: 0.001).map { $0 }) { threshold in
            split(rest, positive: .overexposed) { $0.highlightShare >= threshold && $0.p10 >= rule.washedOutP10 }
        } * 1000).rounded() / 1000
        return rule
    }

    /// The area under the ROC curve of `score` for telling `positive` from the rest (higher score: more likely positive).
    static func rocAUC(_ samples: [ExposureSample], positive: ExposureVerdict, score: (ExposureStatistics) -> Double) -> Double? {
        let positives = samples.filter { $0.label == positive }.map { score($0.statistics) }
        let negatives = samples.filter { $0.label != positive }.map { score($0.statistics) }
        guard !positives.isEmpty, !negatives.isEmpty else { return nil }
        var wins = 0.0
        for p in positives {
            for n in negatives { wins += p > n ? 1 : p == n ? 0.5 : 0 }
        }
        return wins / Double(positives.count * negatives.count)
    }

    /// The balanced accuracy of `flags` for `positive` against the rest of `samples`.
    private static func split(_ samples: [ExposureSample], positive: ExposureVerdict, flags: (ExposureStatistics) -> Bool) -> Double {
        let positives = samples.filter { $0.label == positive }
        let negatives = samples.filter { $0.label != positive }
        let recall = positives.isEmpty ? 1 : Double(positives.filter { flags($0.statistics) }.count) / Double(positives.count)
        let specificity = negatives.isEmpty ? 1 : Double(negatives.filter { !flags($0.statistics) }.count) / Double(negatives.count)
        return (recall + specificity) / 2
    }

    /// The middle of the longest run of consecutive candidates with the best `accuracy`.
    private static func middleOfBest(candidates: [Double], accuracy: (Double) -> Double) -> Double {
        let scores = candidates.map(accuracy)
        let best = scores.max() ?? 0
        var bestRun = 0..<1, start: Int?
        for index in 0...scores.count {
            let atBest = index < scores.count && scores[index] >= best - 1e-12
            if atBest, start == nil { start = index }
            if !atBest, let runStart = start {
                if index - runStart > bestRun.count { bestRun = runStart..<index }
                start = nil
            }
        }
        return (candidates[bestRun.lowerBound] + candidates[bestRun.upperBound - 1]) / 2
    }
}
