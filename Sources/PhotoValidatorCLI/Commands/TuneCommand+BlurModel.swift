import ArgumentParser
import BlurTuning
import Foundation
import PhotoValidation

extension TuneCommand {
    /// `tune --check blur-model`: measures every labelled photo (sharp or blurry, as `--check blur`
    /// reads them), and recommends each photo type's blur probability threshold
    /// (`blur.probability_threshold_*`, for `blur.judge = model`) on the tuning part, with the
    /// held-aside part counted apart. The analysis runs on the sharpness `1 - blur_probability`, so
    /// that a photo is blurry below a threshold as for the score; report.json keeps that scale,
    /// and the table and thresholds.json give the probability threshold, `1 - threshold`.
    func tuneBlurModel(settings: ValidationSettings, deadline: Duration) async throws {
        let photos: [LabelledPhoto]
        do {
            photos = try LabelledSetReader(defaultType: photoType.value).read(labelled)
        } catch {
            throw ValidationError("\(error)")
        }
        let validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: deadline)
        defer { validator.isolation?.shutdown() }
        let outcomes = await outcomes(of: photos.map(\.path), as: photos.map(\.photoType), validator: validator, deadline: deadline)
        // A higher probability is blurrier: its complement ranks as the score does (larger is sharper).
        let (scored, unscored) = score(photos, outcomes: outcomes, measure: { $0.blurProbability.map { 1 - $0 } },
                                missing: "no blur probability (not an image, or under one tile)")
        let objective: ThresholdAnalysis.Objective = recall.map { .recall($0) } ?? .balancedAccuracy
        let types = PhotoType.allCases.compactMap { type -> TuningReport.TypeReport? in
            let ofType = scored.filter { $0.type == type }
            let tuning = ofType.filter { $0.split == .tune }.map(\.photo)
            guard !tuning.isEmpty else { return nil }
            return TuningReport.TypeReport(photoType: type, photos: tuning, heldAside: ofType.filter { $0.split == .held }.map(\.photo),
                                           currentThreshold: 1 - settings.blurProbabilityThreshold(for: type), objective: objective)
        }
        guard !types.isEmpty else { throw ValidationError("no photo could be scored") }
        let report = TuningReport(
            analysisSize: settings.analysisScale.description,
            objective: (recall.map { "lowest threshold with recall >= \($0)" } ?? "maximum balanced accuracy") + ", on the sharpness 1 - blur_probability",
            unscored: unscored, types: types
        )
        var snippet: [String: Double] = [:]
        for type in types {
            let current = 1 - type.current.matrix.threshold, recommended = 1 - type.recommended.matrix.threshold
            snippet["probability_threshold_\(type.photoType.rawValue)"] = (recommended * 10_000).rounded() / 10_000
            var line = String(format: "%@: %d sharp, %d blurry, ROC AUC %@; probability threshold now %.4f (balanced accuracy %.4f), recommended %.4f (%.4f)",
                              type.photoType.rawValue, type.sharp, type.blurry, type.rocAUC.map { String(format: "%.4f", $0) } ?? "-",
                              current, type.current.balancedAccuracy, recommended, type.recommended.balancedAccuracy)
            if let held = type.held {
                line += String(format: "; held aside %d sharp, %d blurry: %.4f at the recommended threshold", held.sharp, held.blurry, held.recommended.balancedAccuracy)
            }
            StandardStreams.output(line)
        }
        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(report).write(to: folder.appendingPathComponent("report.json"))
        try encoder.encode(["blur": snippet]).write(to: folder.appendingPathComponent("thresholds.json"))
        StandardStreams.output("\nWrote \(folder.path)/report.json (on the sharpness 1 - blur_probability) and thresholds.json (use it with --config, or set "
            + snippet.sorted { $0.key < $1.key }.map { "PHOTO_VALIDATOR_BLUR_\($0.key.uppercased())=\($0.value)" }.joined(separator: " ") + ")")
    }
}
