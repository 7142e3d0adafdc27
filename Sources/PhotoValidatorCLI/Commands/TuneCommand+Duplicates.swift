import ArgumentParser
import Foundation
import LumaAnalysis
import PhotoValidation

extension TuneCommand {
    /// `tune --check duplicates`: fingerprints every photo of the pair manifests through the
    /// validator, recommends the rule with the best balanced accuracy at most 0.5% false duplicates
    /// on the tuning part, and reports it beside the current one on the held part, per kind of pair
    /// and with each source left out in turn. Figures count the pairs a daemon can meet: both photos
    /// at least the inspiration minimum side (a smaller one is refused before its duplicates matter);
    /// the others are reported apart.
    func tuneDuplicates(settings: ValidationSettings, deadline: Duration) async throws {
        let pairs: [DuplicatePairReader.Pair]
        do {
            pairs = try labelled.flatMap(DuplicatePairReader.read)
        } catch {
            throw ValidationError("\(error)")
        }
        let files = Array(Set(pairs.flatMap { [$0.first, $0.second] })).sorted()
        let validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: deadline)
        defer { validator.isolation?.shutdown() }
        var fingerprints: [String: PhotoFingerprint] = [:], tooSmall: Set<String> = []
        let outcomes = await outcomes(of: files, as: files.map { _ in .inspiration }, validator: validator, deadline: deadline)
        var page = try openPage()
        page?.addThumbnails(of: files, outcomes: outcomes)
        for (file, outcome) in zip(files, outcomes) {
            if case .validated(let output, _) = outcome, let fingerprint = output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)) {
                fingerprints[file] = fingerprint
                if output.failures.contains(.lowResolution) { tooSmall.insert(file) }
            } else {
                StandardStreams.error("photo-validator: \(file): no fingerprint")
            }
        }
        let measured = pairs.compactMap { pair -> (DuplicatePairReader.Pair, DuplicateTuning.Scored)? in
            guard let first = fingerprints[pair.first], let second = fingerprints[pair.second] else { return nil }
            let screen = DuplicateScreen(of: second, rule: settings.duplicateRule)
            return (pair, DuplicateTuning.Scored(duplicate: pair.duplicate, kind: pair.kind, source: pair.source, held: pair.held,
                                                 evidence: first.evidence(against: second), admitted: screen.admits(first),
                                                 sharedFeatures: screen.sharedFeatures(with: first)))
        }
        try writePairs(measured, tooSmall: tooSmall)
        let small = measured.filter { tooSmall.contains($0.0.first) || tooSmall.contains($0.0.second) }.map(\.1)
        let scored = measured.filter { !tooSmall.contains($0.0.first) && !tooSmall.contains($0.0.second) }.map(\.1)
        let tuning = scored.filter { !$0.held }, held = scored.filter(\.held)
        guard !tuning.isEmpty else { throw ValidationError("no pair of the tuning part could be measured") }
        let current = settings.duplicateRule
        let recommended = DuplicateTuning.recommended(on: tuning)
        if var page {
            let kept = measured.filter { !tooSmall.contains($0.0.first) && !tooSmall.contains($0.0.second) }
            func item(_ pair: DuplicatePairReader.Pair, _ score: Double) -> TuningPage.Item {
                TuningPage.Item(path: pair.first, label: pair.duplicate ? "duplicate" : "distinct (\(pair.kind))", positive: pair.duplicate,
                                score: score, held: pair.held, thumb: page.thumb(pair.first), path2: pair.second, thumb2: page.thumb(pair.second))
            }
            page.sections.append(TuningPage.Section(
                id: "duplicates-aligned", title: "duplicates · aligned pairs", scoreName: "detail correlation", positive: "duplicate", negative: "distinct",
                rule: .atLeast, current: current.minimumCorrelation, recommended: recommended.minimumCorrelation,
                setting: ["duplicates", "min_correlation"], integer: false, logarithmic: false,
                note: "Pairs whose local features align (at least \(current.minimumInliers) matches explained, duplicates.min_matches): a copy's aligned detail correlates at least the threshold.",
                items: kept.filter { $0.1.evidence.inliers >= current.minimumInliers }.map { item($0.0, $0.1.evidence.correlation) }
            ))
            page.sections.append(TuningPage.Section(
                id: "duplicates-hash", title: "duplicates · pairs not aligned", scoreName: "hash distance", positive: "duplicate", negative: "distinct",
                rule: .atMost, current: Double(current.maximumDistance), recommended: Double(recommended.maximumDistance),
                setting: ["duplicates", "max_distance"], integer: true, logarithmic: false,
                note: "Pairs the features cannot align (under \(current.minimumInliers) matches): the global hashes decide, within the threshold's differing bits.",
                items: kept.filter { $0.1.evidence.inliers < current.minimumInliers }.map { item($0.0, Double($0.1.evidence.hashDistance)) }
            ))
            try writePage(page)
        }
        StandardStreams.output("Duplicate check: \(scored.count) pairs (\(scored.filter(\.duplicate).count) duplicates, \(scored.filter { !$0.duplicate }.count) distinct); tuning part \(tuning.count), held aside \(held.count)")
        if !small.isEmpty {
            let figures = DuplicateTuning.figures(small, rule: settings.duplicateRule)
            StandardStreams.output(String(format: "Left out: %d pairs with a photo under %d px, refused as low_resolution before duplicates matter (the current rule there: %.2f%% false duplicates, %.3f found)",
                                          small.count, settings.inspirationMinimumShortSide, figures.falseRate * 100, figures.recall))
        }
        let auc = { (score: (DuplicateEvidence) -> Double) in DuplicateTuning.rocAUC(tuning, score: score).map { String(format: "%.4f", $0) } ?? "-" }
        StandardStreams.output("ROC AUC on the tuning part: hash distance \(auc { -Double($0.hashDistance) }), feature matches explained \(auc { Double($0.inliers) }), aligned detail correlation \(auc { $0.correlation })")
        StandardStreams.output("\n" + ["rule".padding(toLength: 58, withPad: " ", startingAt: 0), "part", "false duplicates", "found", "BA"].joined(separator: "  "))
        for (name, rule) in [("current: \(Self.describe(current))", current), ("recommended: \(Self.describe(recommended))", recommended)] {
            for (part, pairs) in [("tune", tuning), ("held", held)] where !pairs.isEmpty {
                let figures = DuplicateTuning.figures(pairs, rule: rule)
                StandardStreams.output([name.padding(toLength: 58, withPad: " ", startingAt: 0), part,
                                        String(format: "%15.2f%%", figures.falseRate * 100), String(format: "%5.3f", figures.recall),
                                        String(format: "%5.3f", figures.balancedAccuracy)].joined(separator: "  "))
            }
        }
        // Left out in turn: the rule chosen anew without the source, judged on it.
        let left = Set(scored.map(\.source)).sorted().map { source -> (String, DuplicateTuning.Figures, DuplicateRule) in
            let chosen = DuplicateTuning.recommended(on: tuning.filter { $0.source != source })
            return (source, DuplicateTuning.figures(scored.filter { $0.source == source }, rule: chosen), chosen)
        }
        if let worst = left.min(by: { $0.1.balancedAccuracy < $1.1.balancedAccuracy }) {
            StandardStreams.output(String(format: "worst left-out source: %@ BA %.3f, %.2f%% false duplicates, %.3f found (%@)",
                                          worst.0, worst.1.balancedAccuracy, worst.1.falseRate * 100, worst.1.recall, Self.describe(worst.2)))
        }
        let shipped = Set(scored.map(\.source)).sorted().map { source in (source, DuplicateTuning.figures(scored.filter { $0.source == source }, rule: current)) }
        if let worst = shipped.min(by: { $0.1.balancedAccuracy < $1.1.balancedAccuracy }) {
            StandardStreams.output(String(format: "the current rule on each source, worst: %@ BA %.3f, %.2f%% false duplicates, %.3f found",
                                          worst.0, worst.1.balancedAccuracy, worst.1.falseRate * 100, worst.1.recall))
        }
        if let worstFalse = left.max(by: { $0.1.falseRate < $1.1.falseRate }), worstFalse.1.falseRate > 0 {
            StandardStreams.output(String(format: "most false duplicates left out: %@ %.2f%% (%@)", worstFalse.0, worstFalse.1.falseRate * 100, Self.describe(worstFalse.2)))
        }
        let kinds = Set(scored.map(\.kind)).sorted().map { kind -> String in
            let ofKind = scored.filter { $0.kind == kind }
            return "\(kind) \(ofKind.filter { current.isDuplicate($0.evidence) }.count)/\(ofKind.count)"
        }
        StandardStreams.output("\nCalled duplicates by the current rule, by kind: " + kinds.joined(separator: ", "))
        reportScreen(scored, rule: current)
        StandardStreams.output("\nTo use the recommendation: PHOTO_VALIDATOR_DUPLICATES_MAX_DISTANCE=\(recommended.maximumDistance) PHOTO_VALIDATOR_DUPLICATES_MIN_MATCHES=\(recommended.minimumInliers) PHOTO_VALIDATOR_DUPLICATES_MIN_CORRELATION=\(recommended.minimumCorrelation)")
    }

    /// What the candidates' screen (`DuplicateScreen`) does on the pairs: the pairs the current rule
    /// calls duplicates that it passes to the full comparison (all of them, or the figures above
    /// would not be what `validate` and the daemon do), the distinct pairs it spares, and the margin.
    private func reportScreen(_ scored: [DuplicateTuning.Scored], rule: DuplicateRule) {
        let called = scored.filter { rule.isDuplicate($0.evidence) }
        let lost = called.filter { !$0.admitted }
        let byFeatures = called.filter { $0.evidence.hashDistance > rule.maximumDistance }
        let distinct = scored.filter { !$0.duplicate }
        StandardStreams.output(String(format: "Candidates before comparisons: the screen passes %d of the %d pairs the current rule calls duplicates and %d of %d distinct pairs to the full comparison; %d of all %d pairs (%.1f%%) are spared it",
                                      called.count - lost.count, called.count, distinct.filter(\.admitted).count, distinct.count,
                                      scored.filter { !$0.admitted }.count, scored.count, 100 * Double(scored.filter { !$0.admitted }.count) / Double(max(1, scored.count))))
        if let fewest = byFeatures.map(\.sharedFeatures).min() {
            StandardStreams.output("  the fewest shared features among the \(byFeatures.count) called duplicates the hash does not decide: \(fewest) (the screen needs \(max(1, rule.minimumInliers)))")
        }
        let kinds = Dictionary(grouping: lost, by: \.kind).map { "\($0.key) \($0.value.count)" }.sorted()
        if !kinds.isEmpty { StandardStreams.output("  called duplicates the screen would lose, by kind: " + kinds.joined(separator: ", ")) }
    }

    /// Writes each pair's figures to `duplicate-pairs.csv` in the report folder, so a choice can be checked pair by pair.
    private func writePairs(_ measured: [(DuplicatePairReader.Pair, DuplicateTuning.Scored)], tooSmall: Set<String>) throws {
        var lines = ["a,b,label,kind,source,split,too_small,hash_distance,matches_explained,match_share,detail_correlation,shared_features,screened_out"]
        for (pair, score) in measured {
            let small = tooSmall.contains(pair.first) || tooSmall.contains(pair.second)
            let fields = [pair.first, pair.second, pair.duplicate ? "duplicate" : "distinct", pair.kind, pair.source, pair.held ? "held" : "tune",
                          small ? "yes" : "no", "\(score.evidence.hashDistance)", "\(score.evidence.inliers)", String(format: "%.4f", score.evidence.inlierShare), String(format: "%.4f", score.evidence.correlation),
                          "\(score.sharedFeatures)", score.admitted ? "no" : "yes"]
            lines.append(CSVLine.encode(fields))
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            try (lines.joined(separator: "\n") + "\n").write(toFile: (output as NSString).appendingPathComponent("duplicate-pairs.csv"), atomically: true, encoding: .utf8)
        } catch {
            throw ValidationError("cannot write \(output)/duplicate-pairs.csv: \(error.localizedDescription)")
        }
    }

    /// A rule in one line, as the settings name it.
    private static func describe(_ rule: DuplicateRule) -> String {
        String(format: "hash <= %d, %d+ matches, detail >= %.2f", rule.maximumDistance, rule.minimumInliers, rule.minimumCorrelation)
    }
}
