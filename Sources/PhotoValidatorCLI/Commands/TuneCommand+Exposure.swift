import ArgumentParser
import Foundation
import LumaAnalysis
import PhotoValidation

extension TuneCommand {
    /// `tune --check exposure`: measures every photo of the exposure manifests, recommends the
    /// thresholds on the tuning part and reports them beside the current ones and the mean-luma
    /// peer, on the held part and on every source left out in turn.
    func tuneExposure(settings: ValidationSettings, deadline: Duration) async throws {
        let entries: [ExposureSetReader.Entry]
        do {
            entries = try labelled.flatMap(ExposureSetReader.read)
        } catch {
            throw ValidationError("\(error)")
        }
        let validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: deadline)
        defer { validator.isolation?.shutdown() }
        var samples: [ExposureSample] = []
        var measured: [(path: String, sample: ExposureSample)] = []
        let outcomes = await outcomes(of: entries.map(\.path), as: entries.map { _ in .room }, validator: validator, deadline: deadline)
        var page = try openPage()
        page?.addThumbnails(of: entries.map(\.path), outcomes: outcomes)
        for (entry, outcome) in zip(entries, outcomes) {
            if case .validated(let output, _) = outcome, let statistics = output.details.exposure {
                samples.append(ExposureSample(path: entry.path, label: entry.label, held: entry.held, source: entry.source, statistics: statistics))
                measured.append((entry.path, samples[samples.count - 1]))
            } else {
                StandardStreams.error("photo-validator: \(entry.path): not measured")
                page?.unscored.append("\(entry.path): not measured")
            }
        }
        let tuning = samples.filter { !$0.held }, held = samples.filter(\.held)
        guard !tuning.isEmpty else { throw ValidationError("no photo of the tuning part could be measured") }
        let recommended = ExposureTuning.recommended(on: tuning, base: settings.exposure)
        // The recommendation is chosen anew without each left-out source; the other rules are fixed.
        let rules: [(rule: ExposureTuning.Rule, leftOut: (String) -> ExposureTuning.Rule)] = [
            (ExposureTuning.rule(settings.exposure, name: "current: \(Self.thresholds(settings.exposure))"), { _ in
                ExposureTuning.rule(settings.exposure, name: "current") }),
            (ExposureTuning.rule(recommended, name: "recommended: \(Self.thresholds(recommended))"), { source in
                ExposureTuning.rule(ExposureTuning.recommended(on: tuning.filter { $0.source != source }, base: settings.exposure), name: "recommended") }),
            (ExposureTuning.clippedOnly(settings.exposure), { _ in ExposureTuning.clippedOnly(settings.exposure) }),
            (ExposureTuning.meanLuma, { _ in ExposureTuning.meanLuma }),
        ]
        let counts = ExposureVerdict.allCases.map { label in "\(label.rawValue) \(samples.filter { $0.label == label }.count)" }
        StandardStreams.output("Exposure check: \(samples.count) photos (\(counts.joined(separator: ", "))); tuning part \(tuning.count), held aside \(held.count)")
        let auc = [
            ExposureTuning.rocAUC(tuning, positive: .tooDark) { -Double($0.p90) },
            ExposureTuning.rocAUC(tuning.filter { $0.label != .tooDark }, positive: .overexposed) { $0.highlightShare },
            ExposureTuning.rocAUC(tuning.filter { $0.label != .tooDark && $0.statistics.highlightShare >= settings.exposure.clippedShare }, positive: .overexposed) { Double($0.p10) },
        ].map { $0.map { String(format: "%.4f", $0) } ?? "-" }
        StandardStreams.output("ROC AUC on the tuning part: too_dark by p90 \(auc[0]), overexposed by the clipped share \(auc[1]), by p10 among photos clipped at least \(settings.exposure.clippedShare) \(auc[2])")
        let sources = Set(samples.map(\.source)).sorted()
        StandardStreams.output("\n" + ["rule".padding(toLength: 56, withPad: " ", startingAt: 0), "tune BA", "held BA", "usable flagged", "worst left-out source"].joined(separator: "  "))
        for (rule, leftOut) in rules {
            let worst = sources.compactMap { source in
                ExposureTuning.balancedAccuracy(leftOut(source), on: samples.filter { $0.source == source }).map { (source, $0) }
            }.min { $0.1 < $1.1 }
            let cells = [
                rule.name.padding(toLength: 56, withPad: " ", startingAt: 0),
                Self.figure(ExposureTuning.balancedAccuracy(rule, on: tuning)).padding(toLength: 7, withPad: " ", startingAt: 0),
                Self.figure(ExposureTuning.balancedAccuracy(rule, on: held)).padding(toLength: 7, withPad: " ", startingAt: 0),
                String(ExposureTuning.usableFlagged(rule, on: samples)).padding(toLength: 14, withPad: " ", startingAt: 0),
                worst.map { "\($0.0) \(String(format: "%.3f", $0.1))" } ?? "-",
            ]
            StandardStreams.output(cells.joined(separator: "  "))
        }
        let flagged = samples.filter { $0.label == .usable && settings.exposure.verdict(on: $0.statistics) != .usable }
        if !flagged.isEmpty {
            StandardStreams.output("\nUsable photos the current rule flags: " + flagged.map { "\($0.path) (\($0.source))" }.joined(separator: ", "))
        }
        if var page {
            func item(_ entry: (path: String, sample: ExposureSample), positive: ExposureVerdict, score: Double) -> TuningPage.Item {
                TuningPage.Item(path: entry.path, label: entry.sample.label.rawValue, positive: entry.sample.label == positive,
                                score: score, held: entry.sample.held, thumb: page.thumb(entry.path))
            }
            page.sections.append(TuningPage.Section(
                id: "exposure-too-dark", title: "exposure · too_dark", scoreName: "p90 luma", positive: "too_dark", negative: "not too dark",
                rule: .below, current: Double(settings.exposure.darkP90), recommended: Double(recommended.darkP90),
                setting: ["exposure", "dark_p90"], integer: true, logarithmic: false,
                note: "A photo is too_dark when its 90th luma percentile is under the threshold.",
                items: measured.map { item($0, positive: .tooDark, score: Double($0.sample.statistics.p90)) }
            ))
            page.sections.append(TuningPage.Section(
                id: "exposure-overexposed", title: "exposure · overexposed", scoreName: "clipped share", positive: "overexposed", negative: "usable",
                rule: .atLeast, current: settings.exposure.clippedShare, recommended: recommended.clippedShare,
                setting: ["exposure", "clipped_share"], integer: false, logarithmic: false,
                note: "Photos not labelled too_dark; one is overexposed when at least this share of it is clipped to white and its 10th luma percentile is at least exposure.washed_out_p10 (the slider moves the share alone).",
                items: measured.filter { $0.sample.label != .tooDark }.map { item($0, positive: .overexposed, score: $0.sample.statistics.highlightShare) }
            ))
            try writePage(page)
        }
        StandardStreams.output("\nSet PHOTO_VALIDATOR_EXPOSURE_DARK_P90=\(recommended.darkP90) PHOTO_VALIDATOR_EXPOSURE_CLIPPED_SHARE=\(recommended.clippedShare) PHOTO_VALIDATOR_EXPOSURE_WASHED_OUT_P10=\(recommended.washedOutP10) to use the recommendation.")
    }

    /// The thresholds of `rule`, as the report names them.
    private static func thresholds(_ rule: ExposureRule) -> String {
        "p90 < \(rule.darkP90), clipped >= \(rule.clippedShare) and p10 >= \(rule.washedOutP10)"
    }

    private static func figure(_ value: Double?) -> String {
        value.map { String(format: "%.3f", $0) } ?? "-"
    }
}
