import ArgumentParser
import ContentCheck
import Foundation
import Logging
import PhotoValidation
import VipsDecoder

/// `photo-validator validate`: checks files and folders in parallel and prints one record each.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate photo files and folders (recursively) and print one record per photo.",
        discussion: """
            Exit status: 0 when every photo passed, 1 when any failed, 2 for usage errors or when a \
            file or folder could not be read. Records go to standard output; problems, the progress \
            bar and the summary go to standard error.
            """
    )

    /// Files larger than this are reported as unreadable rather than loaded.
    static let maximumFileSize = 256 << 20

    @Argument(help: "Photo files or folders to validate.")
    var paths: [String]

    @Option(name: .customLong("type"), help: "Photo type: room or inspiration.")
    var photoType: PhotoTypeArgument = .room

    @Option(help: "Output format: table, jsonl or csv.")
    var format: OutputFormat = .table

    @Option(help: "Photos validated at once (default: one per core).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Validate only part K of N (K/N, 1-based), split by a stable hash of each path relative to its argument.")
    var shard: Shard = .all

    @Option(help: "Seconds one photo may take; a photo still decoding then is invalid_image (decode_timeout) and the others go on.")
    var timeout: Double = 60

    @Flag(name: .customLong("no-progress"), help: "Never draw the progress bar.")
    var noProgress = false

    @Flag(name: .customLong("content-check"), help: "Also ask the configured vision model whether each photo that passed shows what its type needs (costs money; off by default).")
    var contentCheck = false

    @OptionGroup(title: "Content check (with --content-check)")
    var content: ContentOptions

    @OptionGroup(title: "Checks")
    var checks: CheckOptions

    mutating func validate() throws {
        guard (1...256).contains(jobs) else {
            throw ValidationError("--jobs must be from 1 to 256, got \(jobs)")
        }
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be from 0 to 86400 seconds, got \(timeout)")
        }
    }

    mutating func run() async throws {
        let settings = try checks.resolve(environment: ProcessInfo.processInfo.environment)
        let validator: PhotoValidator
        do {
            validator = try PhotoValidator(settings: settings)
        } catch {
            throw CleanExit.message("photo-validator: cannot start libvips: \(error)")
        }
        let contentConfiguration = contentCheck ? try content.resolveForBatch(environment: ProcessInfo.processInfo.environment) : nil
        let collected = PhotoCollector().collect(paths)
        let entries = collected.entries.filter { shard.contains(relativePath: $0.relativePath) }
        var summary = BatchSummary()
        for problem in collected.problems {
            StandardStreams.error("photo-validator: \(problem)")
            summary.addError()
        }

        let pool = ValidationWorkerPool(threadCount: jobs, queueLimit: jobs, defaultTimeout: .seconds(timeout))
        pool.start()
        let contentClient = contentConfiguration.map { _ in ContentClientService(logger: .init(label: "photo-validator")) }
        let classifier = try contentConfiguration.flatMap { configuration in
            ContentClassifier.make(configuration: configuration, previews: try PreviewEncoder(), client: contentClient!.client)
        }
        var progress = ProgressBar(total: entries.count, enabled: !noProgress)
        let writer = RecordWriter(format: format)
        writer.begin()
        let photoType = photoType.value
        // Results arrive out of order; records are printed in path order so runs are comparable.
        var pending: [Int: FileOutcome] = [:]
        var nextToPrint = 0
        var done = 0
        await withTaskGroup(of: (Int, FileOutcome).self) { group in
            var nextToStart = 0
            func startNext() {
                guard nextToStart < entries.count else { return }
                let index = nextToStart
                let path = entries[index].path
                nextToStart += 1
                group.addTask {
                    (index, await Self.check(path: path, as: photoType, validator: validator, classifier: classifier, pool: pool))
                }
            }
            for _ in 0..<(pool.threadCount + pool.queueLimit) { startNext() }
            for await (index, outcome) in group {
                pending[index] = outcome
                while let ready = pending.removeValue(forKey: nextToPrint) {
                    let path = entries[nextToPrint].path
                    switch ready {
                    case .validated(let output):
                        summary.add(output)
                        writer.write(ValidationRecord(path: path, output: output))
                    case .unreadable(let reason):
                        summary.addError()
                        progress.finish()
                        StandardStreams.error("photo-validator: \(path): \(reason)")
                    }
                    nextToPrint += 1
                }
                done += 1
                progress.update(done: done)
                startNext()
            }
        }
        progress.finish()
        await pool.shutdown()
        await contentClient?.shutdown()
        StandardStreams.error(summary.line)
        throw ExitCode(summary.exitCode)
    }

    /// A file read and checked on a worker, before the content check.
    enum PreparedOutcome: Sendable {
        case prepared(PreparedPhoto)
        case unreadable(String)
    }

    /// The result of one file: validated, or not readable at all.
    enum FileOutcome: Sendable {
        case validated(ValidatePhotoOutput)
        case unreadable(String)
    }

    /// Reads and validates one file on a worker thread, within the pool's default timeout, then
    /// (with a classifier) runs the content check from this task.
    static func check(path: String, as photoType: PhotoType, validator: PhotoValidator, classifier: ContentClassifier? = nil, pool: ValidationWorkerPool) async -> FileOutcome {
        do {
            let prepared: PreparedOutcome = try await pool.run {
                let bytes: Data
                do {
                    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
                    guard size <= maximumFileSize else {
                        return .unreadable("file is \(size >> 20) MiB, over the \(maximumFileSize >> 20) MiB limit for validate; skipped")
                    }
                    bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    return .unreadable("cannot read the file (\(PhotoCollector.reason(error)))")
                }
                return .prepared(bytes.withUnsafeBytes { bytes in
                    classifier?.prepare(bytes, as: photoType, validator: validator)
                        ?? PreparedPhoto(output: validator.validate(bytes, as: photoType), preview: nil, digest: "")
                })
            }
            switch prepared {
            case .unreadable(let reason):
                return .unreadable(reason)
            case .prepared(let photo):
                guard let classifier else { return .validated(photo.output) }
                return .validated(await classifier.finish(photo).output)
            }
        } catch WorkerPoolError.timedOut {
            return .validated(validator.timedOut(as: photoType, after: pool.defaultTimeout))
        } catch {
            return .unreadable("not validated: \(error)")
        }
    }
}
