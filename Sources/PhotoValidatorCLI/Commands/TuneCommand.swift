import ArgumentParser
import BlurTuning
import DecodeSandbox
import Foundation
import PhotoChecks
import PhotoValidation
import ValidationThreads
import ValidatorConfiguration

/// `photo-validator tune`: scores labelled photos and recommends blur thresholds.
struct TuneCommand: AsyncParsableCommand, SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Score labelled photos and recommend blur thresholds per photo type.",
        discussion: """
            LABELLED is a folder with sharp/ and blurry/ subfolders, or a CSV manifest with the columns \
            path,label[,photo_type][,split] (labels sharp or blurry; paths relative to the manifest; split \
            tune or held: thresholds are chosen on the tune part only, and the held part is reported \
            apart); the layout of ../shared/photos/manifest.csv (file,...,blur,...) is accepted too. Writes report.json, \
            report.svg, report.png and thresholds.json (a configuration snippet) to --output. A photo \
            may take --validation-timeout seconds, as in the daemon.

            """ + settingsHelp
    )

    /// The checks' settings, the deadline of one photo and the scores cache's key.
    static let settingsCatalog = ValidationSettings.settings + SettingsCatalog([.limitsValidationTimeoutSeconds]) + BatchSettings.settings

    @Argument(help: "Labelled folders or CSV manifests.")
    var labelled: [String]

    @Option(help: "The check to tune: blur (labels sharp, blurry), blur-model (the same labels: the blur model's probability thresholds, blur.probability_threshold_*), exposure (a manifest path,label,split,source with labels usable, too_dark, overexposed, as datasets/make-exposure-set writes) or duplicates (pairs a,b,label,transform,source,split with labels duplicate, distinct, as datasets/make-duplicate-set writes).")
    var check: TunedCheck = .blur

    @Option(name: .customLong("type"), help: "Photo type of photos whose manifest does not say.")
    var photoType: PhotoTypeArgument = .room

    @Option(help: "Recommend the lowest threshold reaching this recall of blurry photos (0-1), instead of the best balanced accuracy.")
    var recall: Double?

    @Option(help: "Folder the report files are written to.")
    var output: String = "tune-report"

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a page of the photos to this folder (index.html and thumbs/): the score strip of every photo, clickable to its thumbnail, the photos misjudged at the current and the recommended threshold, and a threshold slider that recomputes the counts and shows its thresholds.json. Every photo is decoded for its thumbnail, so the scores cache is not read with it.", valueName: "folder"))
    var report: String?

    @Option(help: "Photos scored at once (default: one per core).")
    var jobs: Int = AvailableCores.count

    @Option(name: .customLong("scores-cache"), help: ArgumentHelp("The scores cache of validate --scores-cache: photos measured before are scored without decoding them, and new ones are kept; a row that does not verify with the key of --scores-cache-key-file is measured again.", valueName: "path"))
    var scoresCache: String?

    @Flag(name: .customLong("no-progress"), help: "Never draw the progress bar.")
    var noProgress = false

    @OptionGroup var settingFlags: SettingFlags

    mutating func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 256") }
        if let recall, !(0...1).contains(recall) { throw ValidationError("--recall must be from 0 to 1") }
    }

    mutating func run() async throws {
        let (settings, deadline) = try await settingFlags.validationAndDeadline(Self.settingsCatalog, command: "tune", environment: ProcessInfo.processInfo.environment)
        switch check {
        case .exposure:
            try await tuneExposure(settings: settings, deadline: deadline)
            return
        case .duplicates:
            try await tuneDuplicates(settings: settings, deadline: deadline)
            return
        case .blurModel:
            try await tuneBlurModel(settings: settings, deadline: deadline)
            return
        case .blur:
            break
        }
        let photos: [LabelledPhoto]
        do {
            photos = try LabelledSetReader(defaultType: photoType.value).read(labelled)
        } catch {
            throw ValidationError("\(error)")
        }
        var page = try openPage()
        let validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: deadline)
        defer { validator.isolation?.shutdown() }
        let outcomes = await outcomes(of: photos.map(\.path), as: photos.map(\.photoType), validator: validator, deadline: deadline)
        page?.addThumbnails(of: photos.map(\.path), outcomes: outcomes)
        let (scored, unscored) = score(photos, outcomes: outcomes)
        let objective: ThresholdAnalysis.Objective = recall.map { .recall($0) } ?? .balancedAccuracy
        let types = PhotoType.allCases.compactMap { type -> TuningReport.TypeReport? in
            let ofType = scored.filter { $0.type == type }
            let tuning = ofType.filter { $0.split == .tune }.map(\.photo)
            guard !tuning.isEmpty else { return nil }
            return TuningReport.TypeReport(photoType: type, photos: tuning, heldAside: ofType.filter { $0.split == .held }.map(\.photo),
                                           currentThreshold: settings.blurThreshold(for: type), objective: objective)
        }
        guard !types.isEmpty else { throw ValidationError("no photo could be scored") }
        let report = TuningReport(
            analysisSize: settings.analysisScale.description,
            objective: recall.map { "lowest threshold with recall >= \($0)" } ?? "maximum balanced accuracy",
            unscored: unscored, types: types
        )
        TuningTable.print(report)
        try write(report)
        if var page {
            page.unscored = unscored.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            for type in report.types {
                let ofType = scored.filter { $0.type == type.photoType }
                page.sections.append(TuningPage.Section(
                    id: "blur-\(type.photoType.rawValue)", title: "blur · \(type.photoType.rawValue)", scoreName: "blur score",
                    positive: "blurry", negative: "sharp", rule: .below,
                    current: type.current.matrix.threshold, recommended: type.recommended.matrix.threshold,
                    setting: [type.photoType.rawValue, "blur_threshold"], integer: false, logarithmic: true,
                    note: "ROC AUC \(type.rocAUC.map { String(format: "%.4f", $0) } ?? "-"); thresholds are chosen on the tuning part, the held-aside part is counted apart.",
                    items: ofType.map { entry in
                        TuningPage.Item(path: entry.photo.path, label: entry.photo.label.rawValue, positive: entry.photo.label == .blurry,
                                        score: entry.photo.score, held: entry.split == .held, thumb: page.thumb(entry.photo.path))
                    }
                ))
            }
            try writePage(page)
        }
    }

    /// The page of `--report`, or nil without one; a folder that cannot hold it stops the run with its sentence.
    func openPage() throws -> TuningPage? {
        do {
            return try report.map { try TuningPage(path: $0) }
        } catch {
            StandardStreams.error("photo-validator: \(error)")
            throw ExitCode(2)
        }
    }

    /// Writes the page of `--report` and says where; a page that cannot be written stops the run with its sentence.
    func writePage(_ page: TuningPage) throws {
        let index: String
        do {
            index = try page.write(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            StandardStreams.error("photo-validator: the report's page was not written: \(error)")
            throw ExitCode(2)
        }
        StandardStreams.output("Wrote the report page \(index)")
    }

    /// The scores of the photos from their outcomes, by `measure` (the blur score unless given: larger is sharper);
    /// photos without one (`missing` says why when the answer does not), or unreadable, are listed apart.
    func score(_ photos: [LabelledPhoto], outcomes: [PhotoFileCheck.Outcome],
               measure: (ValidationDetails) -> Double? = { $0.blurScore }, missing: String = "not an image")
        -> ([(photo: ScoredPhoto, type: PhotoType, split: LabelledPhoto.Split)], [String: String])
    {
        var scored: [(photo: ScoredPhoto, type: PhotoType, split: LabelledPhoto.Split)] = []
        var unscored: [String: String] = [:]
        for (photo, outcome) in zip(photos, outcomes) {
            switch outcome {
            case .validated(let output, _):
                if let score = measure(output.details) {
                    scored.append((ScoredPhoto(path: photo.path, label: photo.label, score: score), photo.photoType, photo.split))
                } else {
                    unscored[photo.path] = output.details.errorDetail ?? missing
                }
            case .unreadable(let reason):
                unscored[photo.path] = reason
            }
        }
        for (path, reason) in unscored.sorted(by: { $0.key < $1.key }) {
            StandardStreams.error("photo-validator: \(path): not scored (\(reason))")
        }
        return (scored, unscored)
    }

    private func write(_ report: TuningReport) throws {
        let folder = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(report).write(to: folder.appendingPathComponent("report.json"))
        let svg = TuningChart.svg(report)
        try Data(svg.utf8).write(to: folder.appendingPathComponent("report.svg"))
        do {
            try DecoderRuntime.png(fromSVG: svg).write(to: folder.appendingPathComponent("report.png"))
        } catch {
            StandardStreams.error("photo-validator: report.png not written: \(error)")
        }
        var snippet: [String: [String: Double]] = [:]
        for type in report.types {
            snippet[type.photoType.rawValue] = ["blur_threshold": (type.recommended.matrix.threshold * 100).rounded() / 100]
        }
        try encoder.encode(snippet).write(to: folder.appendingPathComponent("thresholds.json"))
        StandardStreams.output("\nWrote \(folder.path)/report.json, report.svg, report.png and thresholds.json (use it with --config, or set "
            + report.types.map { "PHOTO_VALIDATOR_\($0.photoType.rawValue.uppercased())_BLUR_THRESHOLD=\(snippet[$0.photoType.rawValue]!["blur_threshold"]!)" }.joined(separator: " ") + ")")
    }
}
