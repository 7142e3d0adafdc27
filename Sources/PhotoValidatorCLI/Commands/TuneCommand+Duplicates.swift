import ArgumentParser
import Foundation
import LumaAnalysis
import PhotoValidation

extension TuneCommand {
    /// `tune --check duplicates`: fingerprints every photo of the pair manifests through the
    /// validator, recommends the largest distance with at most 0.5% false duplicates on the tuning
    /// part, and reports it beside the current one on the held part, per kind of pair and with each
    /// source left out in turn.
    func tuneDuplicates(settings: ValidationSettings) async throws {
        let pairs: [DuplicatePairReader.Pair]
        do {
            pairs = try labelled.flatMap(DuplicatePairReader.read)
        } catch {
            throw ValidationError("\(error)")
        }
        let files = Array(Set(pairs.flatMap { [$0.first, $0.second] })).sorted()
        let validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: .seconds(30))
        defer { validator.isolation?.shutdown() }
        var fingerprints: [String: PhotoFingerprint] = [:]
        for (file, outcome) in zip(files, await outcomes(of: files, as: files.map { _ in .inspiration }, validator: validator)) {
            if case .validated(let output) = outcome, let fingerprint = output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)) {
                fingerprints[file] = fingerprint
            } else {
                StandardStreams.error("photo-validator: \(file): no fingerprint")
            }
        }
        let scored = pairs.compactMap { pair -> DuplicateTuning.Scored? in
            guard let first = fingerprints[pair.first], let second = fingerprints[pair.second] else { return nil }
            return DuplicateTuning.Scored(duplicate: pair.duplicate, kind: pair.kind, source: pair.source, held: pair.held,
                                          distance: first.distance(to: second))
        }
        let tuning = scored.filter { !$0.held }, held = scored.filter(\.held)
        guard !tuning.isEmpty else { throw ValidationError("no pair of the tuning part could be measured") }
        let current = settings.duplicateMaximumDistance
        let recommended = DuplicateTuning.recommended(on: tuning)
        StandardStreams.output("Duplicate check: \(scored.count) pairs (\(scored.filter(\.duplicate).count) duplicates, \(scored.filter { !$0.duplicate }.count) distinct); tuning part \(tuning.count), held aside \(held.count)")
        StandardStreams.output("ROC AUC of the fingerprint distance on the tuning part: \(DuplicateTuning.rocAUC(tuning).map { String(format: "%.4f", $0) } ?? "-")")
        StandardStreams.output("\n" + ["distance".padding(toLength: 22, withPad: " ", startingAt: 0), "part", "false duplicates", "found", "BA"].joined(separator: "  "))
        for (name, maximum) in [("current: <= \(current)", current), ("recommended: <= \(recommended)", recommended)] {
            for (part, pairs) in [("tune", tuning), ("held", held)] where !pairs.isEmpty {
                let figures = DuplicateTuning.figures(pairs, maximum: maximum)
                StandardStreams.output([name.padding(toLength: 22, withPad: " ", startingAt: 0), part,
                                        String(format: "%15.2f%%", figures.falseRate * 100), String(format: "%5.3f", figures.recall),
                                        String(format: "%5.3f", figures.balancedAccuracy)].joined(separator: "  "))
            }
        }
        // Left out in turn: the distance chosen anew without the source, judged on it.
        let worst = Set(scored.map(\.source)).sorted().compactMap { source -> (String, Double)? in
            let left = scored.filter { $0.source == source }
            let chosen = DuplicateTuning.recommended(on: tuning.filter { $0.source != source })
            return (source, DuplicateTuning.figures(left, maximum: chosen).balancedAccuracy)
        }.min { $0.1 < $1.1 }
        if let worst { StandardStreams.output(String(format: "worst left-out source: %@ %.3f", worst.0, worst.1)) }
        let kinds = Set(scored.map(\.kind)).sorted().map { kind -> String in
            let ofKind = scored.filter { $0.kind == kind }
            let called = ofKind.filter { $0.distance <= current }.count
            return "\(kind) \(called)/\(ofKind.count)"
        }
        StandardStreams.output("\nCalled duplicates at <= \(current), by kind: " + kinds.joined(separator: ", "))
        StandardStreams.output("\nSet PHOTO_VALIDATOR_DUPLICATES_MAX_DISTANCE=\(recommended) to use the recommendation.")
    }
}
