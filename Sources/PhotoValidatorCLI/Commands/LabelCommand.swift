import ArgumentParser
import Foundation
import PhotoChecks
import PhotoValidation
import ValidationThreads
import ValidatorConfiguration

/// `photo-validator label --report DIR PHOTOS…`: writes a page for labelling photos by eye, whose
/// saved manifests `tune` reads.
struct LabelCommand: AsyncParsableCommand, SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Write a page for labelling photos by eye (sharp, blurry, usable, too dark, overexposed) that saves the manifests tune reads.",
        discussion: """
            Every photo (files, or folders walked as validate walks them) is decoded once for a 256 px \
            thumbnail and once for a 1024 px view, both oriented and stripped of metadata, into \
            DIR/thumbs/, and DIR/index.html shows them in a grid. Open it in a browser: keys label the \
            selected photo, the labels are kept in the browser, and the buttons save blur.csv \
            (path,label,photo_type: tune LABELLED) and exposure.csv (path,label: tune --check exposure) \
            with absolute paths.

            """ + settingsHelp
    )

    /// The checks' settings (the verdict each photo is shown with).
    static let settingsCatalog = ValidationSettings.settings

    @Argument(help: "Photo files or folders to label.")
    var paths: [String]

    @Option(name: .customLong("report"), help: ArgumentHelp("The folder the page is written to.", valueName: "folder"))
    var report: String

    @Option(name: .customLong("type"), help: "Photo type the blur manifest gives the photos: room or inspiration.")
    var photoType: PhotoTypeArgument = .room

    @Option(help: "Photos decoded at once (default: one per core).")
    var jobs: Int = AvailableCores.count

    @Flag(name: .customLong("no-progress"), help: "Never draw the progress bar.")
    var noProgress = false

    @OptionGroup var settingFlags: SettingFlags

    mutating func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 256") }
    }

    mutating func run() async throws {
        let settings = try await settingFlags.validation(Self.settingsCatalog, command: "label", environment: ProcessInfo.processInfo.environment)
        let validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: .seconds(60))
        defer { validator.isolation?.shutdown() }
        let collected = PhotoCollector().collect(paths)
        for problem in collected.problems { StandardStreams.error("photo-validator: \(problem)") }
        var page: LabellingPage
        do {
            page = try LabellingPage(path: report)
        } catch {
            StandardStreams.error("photo-validator: \(error)")
            throw ExitCode(2)
        }
        let pool = ValidationThreadPool(threadCount: jobs, queueLimit: jobs, defaultTimeout: .seconds(60), threadExit: validator.releaseThreadResources)
        pool.start()
        let small = PhotoFileCheck(validator: validator, classifier: nil, pool: pool, thumbnails: ReportFolder.thumbnailBounds)
        let large = PhotoFileCheck(validator: validator, classifier: nil, pool: pool, thumbnails: LabellingPage.largeBounds)
        let photoType = photoType.value
        let files = collected.entries.map(\.path)
        var results = [(PhotoFileCheck.Outcome, PhotoFileCheck.Outcome)?](repeating: nil, count: files.count)
        var progress = ProgressBar(total: files.count, enabled: !noProgress)
        var done = 0
        // The page's two sizes are two previews; a worker makes one per decode, so each photo is decoded twice.
        await BoundedTaskGroup.run(files, width: 2 * jobs) { file in
            (await small.check(path: file, as: photoType), await large.check(path: file, as: photoType))
        } consume: { index, outcome in
            results[index] = outcome
            done += 1
            progress.update(done: done)
        }
        progress.finish()
        await pool.shutdown()
        for (file, result) in zip(files, results) {
            guard let (thumbnail, view) = result else { continue }
            switch (thumbnail, view) {
            case (.validated(let output, let thumb), .validated(_, let image)):
                let summary = LabellingVerdict(type: photoType.rawValue, width: output.details.width, height: output.details.height,
                                                         verdict: output.passed ? "passed" : output.failures.map(\.rawValue).joined(separator: ", "))
                page.add(path: file, output: summary, thumbnail: thumb, large: image)
            case (.unreadable(let reason), _), (_, .unreadable(let reason)):
                StandardStreams.error("photo-validator: \(file): \(reason)")
            }
        }
        let index: String
        do {
            index = try page.write()
        } catch {
            StandardStreams.error("photo-validator: the report's page was not written: \(error)")
            throw ExitCode(2)
        }
        StandardStreams.error("photo-validator: \(files.count) photos; label them in \(index)")
    }
}
