import ArgumentParser
import ContentCheck
import Foundation
import Logging
import PhotoChecks
import PhotoFormat
import PhotoValidation
import SwiftCSV
import ValidatorConfiguration

/// `photo-validator evaluate-content`: runs the content classifier over a labelled manifest and
/// prints a confusion matrix per photo type, tokens, estimated cost and latency percentiles.
struct EvaluateContentCommand: AsyncParsableCommand, SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate-content",
        abstract: "Run the content classifier over a labelled CSV manifest and report how it does, what it costs and how fast it is.",
        discussion: """
            MANIFEST is a CSV with a `file` column (paths relative to the manifest) and \
            `room_expected` / `inspiration_expected` columns holding pass, content_rejected or \
            too_many_people (cells that expect low_resolution or blurry are left out: the content \
            check would not run). The provider, model and key come from --content-* flags or \
            PHOTO_VALIDATOR_CONTENT_* variables; nothing is cached, so every photo is a paid call.

            """ + settingsHelp
    )

    /// The content check's settings.
    static let settingsCatalog = ContentCheckConfiguration.settings

    @Argument(help: "The labelled CSV manifest.")
    var manifest: String

    @Option(name: .customLong("type"), help: "Judge only this photo type (default: both).")
    var photoType: PhotoTypeArgument?

    @Option(help: "Photos judged at once.")
    var jobs: Int = 4

    @OptionGroup var settingFlags: SettingFlags

    mutating func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 64, got \(jobs)") }
    }

    mutating func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = try await settingFlags.contentCheck(Self.settingsCatalog, command: "evaluate-content", environment: environment)
        // Every photo is asked, so the report's cost and latency are the provider's own.
        configuration.cacheEntries = 0
        configuration.maximumConcurrentCalls = max(configuration.maximumConcurrentCalls, jobs)
        let rows = try Self.rows(of: manifest)
        let types = photoType.map { [$0.value] } ?? PhotoType.allCases

        let previews = PreviewBounds()
        let validator = try PhotoValidator(settings: ValidationSettings())
        let client = ContentClientService(logger: Logger(label: "photo-validator"))
        guard let classifier = ContentClassifier.make(configuration: configuration, previews: previews, client: client.client) else {
            await client.shutdown()
            throw ValidationError("the content check is off")
        }
        var evaluation = ContentEvaluation(model: configuration.model, inputPrice: configuration.inputDollarsPerMillionTokens,
                                           outputPrice: configuration.outputDollarsPerMillionTokens)
        var work: [(path: String, url: URL, photoType: PhotoType, expected: String)] = []
        for row in rows {
            for type in types {
                guard let cell = row.expected[type], !cell.isEmpty else { continue }
                guard let expected = ContentEvaluation.expectedOutcome(cell) else {
                    evaluation.skip(type)
                    continue
                }
                work.append((row.path, row.url, type, expected))
            }
        }
        // Previews are made one at a time here (a command, not the daemon); calls overlap.
        let samples = await withTaskGroup(of: ContentEvaluation.Sample.self) { group in
            var started = 0
            var samples: [ContentEvaluation.Sample] = []
            func start() {
                guard started < work.count else { return }
                let item = work[started]
                started += 1
                let preview = Self.preview(of: item.url, previews: previews, validator: validator)
                group.addTask {
                    let result = await classifier.check(preview: preview, digest: "", as: item.photoType)
                    return ContentEvaluation.Sample(path: item.path, photoType: item.photoType, expected: item.expected, result: result)
                }
            }
            for _ in 0..<jobs { start() }
            for await sample in group {
                samples.append(sample)
                start()
            }
            return samples
        }
        await client.shutdown()
        for sample in samples.sorted(by: { ($0.path, $0.photoType.rawValue) < ($1.path, $1.photoType.rawValue) }) {
            evaluation.add(sample)
        }
        StandardStreams.output(evaluation.report)
    }

    /// The preview of the photo at `url`, or why it could not be made.
    static func preview(of url: URL, previews: PreviewBounds, validator: PhotoValidator) -> Result<PreviewImage, DecodeFailure> {
        guard let data = try? Data(contentsOf: url) else {
            return .failure(DecodeFailure(.emptyInput, "cannot read \(url.path)"))
        }
        return data.withUnsafeBytes { bytes in
            // The preview comes from the validator's own decode, as the service makes it.
            let (output, preview) = validator.validateAndPreview(bytes, as: .inspiration, previews: previews)
            guard let preview else {
                // The validator's own reason, so a corrupt photo is not reported as a wrong format.
                let reason = output.details.error.flatMap(DecodeFailure.Reason.init(rawValue:)) ?? .unsupportedFormat
                return .failure(DecodeFailure(reason, output.details.errorDetail ?? "not a photo"))
            }
            return preview
        }
    }

    /// The manifest's rows: path, file URL, and the expected cell per photo type.
    static func rows(of manifest: String) throws -> [(path: String, url: URL, expected: [PhotoType: String])] {
        let csv: CSV<Named>
        do {
            csv = try CSV<Named>(url: URL(fileURLWithPath: manifest))
        } catch {
            throw ValidationError("\(manifest): not a readable CSV manifest (\(error))")
        }
        let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent()
        guard csv.header.contains("file"), csv.header.contains("room_expected") || csv.header.contains("inspiration_expected") else {
            throw ValidationError("\(manifest): needs a file column and room_expected or inspiration_expected columns")
        }
        return csv.rows.compactMap { row in
            guard let file = row["file"], !file.isEmpty else { return nil }
            var expected: [PhotoType: String] = [:]
            expected[.room] = row["room_expected"]
            expected[.inspiration] = row["inspiration_expected"]
            return (file, folder.appendingPathComponent(file), expected)
        }
    }
}
