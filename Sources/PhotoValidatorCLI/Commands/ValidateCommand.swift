import ArgumentParser
import ContentCheck
import DecodeSandbox
import Foundation
import Logging
import PhotoChecks
import PhotoFormat
import PhotoValidation
import ValidationThreads
import ValidatorConfiguration

/// `photo-validator validate`: checks files and folders in parallel and prints one record each.
struct ValidateCommand: AsyncParsableCommand, SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate photo files and folders (recursively) and print one record per photo.",
        discussion: """
            Exit status: 0 when every photo passed, 1 when any failed, 2 for usage errors or when a \
            file or folder could not be read. Records go to standard output; problems, the progress \
            bar and the summary go to standard error. In folders only image files are validated (by \
            extension: jpg, jpeg, png, webp, heic, heif, in any case); the summary counts the rest as \
            skipped. A file named on the command line is always validated.

            """ + settingsHelp
    )

    /// The checks' settings, the content check's (used with --content-check), the scores cache's
    /// key and how many of a project's newest accepted photos the duplicate check compares with.
    static let settingsCatalog = ValidationSettings.settings + SettingsCatalog([.limitsValidationTimeoutSeconds]) + ContentCheckConfiguration.settings
        + BatchSettings.settings
        + SettingsCatalog([.duplicatesPhotosPerProject])

    @Argument(help: "Photo files or folders to validate.")
    var paths: [String]

    @Option(name: .customLong("type"), help: "Photo type: room or inspiration.")
    var photoType: PhotoTypeArgument = .room

    @Option(help: "Output format: table, jsonl or csv.")
    var format: OutputFormat = .table

    @Option(help: "Photos validated at once (default: one per core).")
    var jobs: Int = AvailableCores.count

    @Option(help: "Validate only part K of N (K/N, 1-based), split by a stable hash of each folder's path relative to its argument (of each file's with --duplicates off), so the parts together find what one run finds.")
    var shard: Shard = .all

    // One photo's deadline is the daemon's setting, limits.validation_timeout_seconds (--validation-timeout);
    // --timeout, which validate once had alone with a default of its own, still sets it for scripts.
    @Option(help: ArgumentHelp("The same as --validation-timeout.", visibility: .hidden))
    var timeout: Double?

    @Option(name: .customLong("include"), help: ArgumentHelp("In folders, validate only files matching this glob (by relative path or name, such as '*.jpg'; repeatable) instead of every image file (jpg, jpeg, png, webp, heic, heif).", valueName: "glob"))
    var include: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp("In folders, skip files matching this glob (by relative path or name; repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(help: "Which photos are one project for the duplicate check: folder (each folder), run (every photo) or off. A later copy of a passed photo is duplicate_photo naming the earlier file.")
    var duplicates: DuplicateScope = .folder

    @Option(name: .customLong("scores-cache"), help: ArgumentHelp("An SQLite file that keeps each photo's measurements by content hash and analysis settings (created if missing), each row signed with the key of --scores-cache-key-file: a re-run with other thresholds or checks judges the photos it has seen without decoding them; a row that does not verify is measured again. Not read with --content-check.", valueName: "path"))
    var scoresCache: String?

    @Flag(name: .customLong("no-progress"), help: "Never draw the progress bar.")
    var noProgress = false

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a report to this folder: index.html (counts by outcome and code, every refused photo under its reason with a thumbnail, a sample of the passed ones) and thumbs/, to open from disk in a browser. Thumbnails come from each photo's own decode, so the scores cache is not read with it.", valueName: "folder"))
    var report: String?

    @Flag(name: .customLong("report-all-passed"), help: "With --report, show every passed photo, not an even sample of about 200.")
    var reportAllPassed = false

    @Flag(name: .customLong("content-check"), help: "Also ask the configured vision model whether each photo that passed shows what its type needs (costs money; off by default).")
    var contentCheck = false

    @OptionGroup var settingFlags: SettingFlags

    mutating func validate() throws {
        guard (1...256).contains(jobs) else {
            throw ValidationError("--jobs must be from 1 to 256, got \(jobs)")
        }
        if let timeout, !(timeout > 0 && timeout <= 86_400) {
            throw ValidationError("--timeout must be from 0 to 86400 seconds, got \(timeout)")
        }
    }

    mutating func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let (settings, validationTimeout) = try await settingFlags.validationAndDeadline(Self.settingsCatalog, command: "validate", environment: environment)
        let deadline = timeout.map { Duration.seconds($0) } ?? validationTimeout
        let validator: PhotoValidator
        do {
            validator = try PhotoValidator.configured(settings: settings, threads: jobs, photoTimeLimit: deadline)
        } catch {
            throw CleanExit.message("photo-validator: cannot start the decoders: \(error)")
        }
        defer { validator.isolation?.shutdown() }
        if let warning = validator.isolation?.sandboxWarning {
            StandardStreams.error("photo-validator: warning: \(warning)")
        }
        var cache: ScoresCache?
        if let scoresCache, report == nil {
            let keyFile = try await settingFlags.scoresCacheKeyFile(Self.settingsCatalog, command: "validate", environment: environment)
            do {
                cache = try ScoresCache(path: scoresCache, key: ScoresCacheKey.resolve(keyFile: keyFile, environment: environment))
            } catch {
                StandardStreams.error("photo-validator: \(error)")
                throw ExitCode(2)
            }
        }
        let contentConfiguration = contentCheck ? try await settingFlags.contentCheck(Self.settingsCatalog, command: "validate", environment: environment) : nil
        let collected = PhotoCollector(include: include, exclude: exclude).collect(paths)
        let scope = settings.duplicateCheck ? duplicates : .off
        if shard.count > 1, scope == .run {
            StandardStreams.error("photo-validator: --duplicates run compares every photo of the run, and a shard sees only its own: "
                + "with --shard, use --duplicates folder (the default: each folder stays whole in one shard) or --duplicates off")
            throw ExitCode(2)
        }
        let entries = collected.entries.filter { shard.contains(relativePath: $0.relativePath, wholeFolders: scope == .folder) }
        var summary = BatchSummary()
        summary.skipped = collected.skipped
        var pageReport: ValidationReport?
        if let report {
            do {
                pageReport = try ValidationReport(path: report, total: entries.count, allPassed: reportAllPassed, exposure: settings.exposure)
            } catch {
                StandardStreams.error("photo-validator: \(error)")
                throw ExitCode(2)
            }
            if contentCheck { StandardStreams.error("photo-validator: warning: with --content-check the report has no thumbnails") }
            if scoresCache != nil { StandardStreams.error("photo-validator: warning: with --report the scores cache is not read (every photo is decoded for its thumbnail)") }
        }
        for problem in collected.problems {
            StandardStreams.error("photo-validator: \(problem)")
            summary.addError()
            pageReport?.addUnreadable(path: "", reason: problem)
        }

        let pool = ValidationThreadPool(threadCount: jobs, queueLimit: jobs, defaultTimeout: deadline, threadExit: validator.releaseThreadResources)
        pool.start()
        let contentClient = contentConfiguration.map { _ in ContentClientService(logger: .init(label: "photo-validator")) }
        let classifier = contentConfiguration.flatMap { configuration in
            ContentClassifier.make(configuration: configuration, previews: PreviewBounds(), client: contentClient!.client)
        }
        var progress = ProgressBar(total: entries.count, enabled: !noProgress)
        let writer = RecordWriter(format: format)
        writer.begin()
        let photoType = photoType.value
        // Results arrive out of order; records are printed in path order so runs are comparable.
        var pending: [Int: PhotoFileCheck.Outcome] = [:]
        var nextToPrint = 0
        let window = try await settingFlags.resolve(Self.settingsCatalog, command: "validate", environment: environment) { settings in
            try settings.integer(.duplicatesPhotosPerProject)
        }
        var duplicateCheck = BatchDuplicates(scope: scope, rule: settings.duplicateRule, window: window)
        var done = 0
        let checker = PhotoFileCheck(validator: validator, classifier: classifier, pool: pool, scoresCache: cache,
                                     thumbnails: report == nil ? nil : ReportFolder.thumbnailBounds, fingerprints: scope != .off)
        await BoundedTaskGroup.run(entries.map(\.path), width: pool.threadCount + pool.queueLimit) { path in
            await checker.check(path: path, as: photoType)
        } consume: { index, outcome in
            pending[index] = outcome
            while let ready = pending.removeValue(forKey: nextToPrint) {
                let path = entries[nextToPrint].path
                switch ready {
                case .validated(let checked, let thumbnail):
                    let output = duplicateCheck.judge(checked, path: path)
                    summary.add(output)
                    writer.write(ValidationRecord(path: path, output: output))
                    pageReport?.add(path: path, output: output, thumbnail: thumbnail)
                case .unreadable(let reason):
                    summary.addError()
                    pageReport?.addUnreadable(path: path, reason: reason)
                    progress.finish()
                    StandardStreams.error("photo-validator: \(path): \(reason)")
                }
                nextToPrint += 1
            }
            done += 1
            progress.update(done: done)
        }
        progress.finish()
        await pool.shutdown()
        await contentClient?.shutdown()
        StandardStreams.error(summary.line)
        if let pageReport {
            do {
                let index = try pageReport.finish(summary: summary, arguments: Array(CommandLine.arguments.dropFirst()))
                StandardStreams.error("photo-validator: report written to \(index)")
            } catch {
                StandardStreams.error("photo-validator: the report's page was not written: \(error)")
                throw ExitCode(2)
            }
        }
        if let cache {
            cache.close()
            StandardStreams.error(cache.summaryLine)
        }
        throw ExitCode(summary.exitCode)
    }
}
