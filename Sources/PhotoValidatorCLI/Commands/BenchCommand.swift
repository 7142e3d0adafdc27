import ArgumentParser
import DecodeSandbox
import Foundation
import PhotoChecks
import PhotoFormat
import PhotoStructure
import PhotoValidation
import ValidatorConfiguration

/// `photo-validator bench`: timings of each stage on the given photos, as JSON.
struct BenchCommand: AsyncParsableCommand, SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time each stage (header, decode, luma, blur, content_preview with --content-preview, total) on photos, and print JSON.",
        discussion: """
            Runs on one thread, after one untimed warm-up per photo; reports median and p90 in milliseconds. \
            For a JPEG it also times libjpeg-turbo decoding only luma at the DCT scale the analysis plane \
            needs (stage jpeg_luma_floor, not part of total): the least any pipeline judging at that size \
            must decode. \
            Two checks on the bytes alone are timed apart too (part of total, shown on their own): \
            cost_caps (the structure scan every photo gets before any decoder) and declared_size \
            (the daemon's Swift read of the header that sets the photo's deadline and memory). \
            Photos are decoded in a sandboxed worker process, as the daemon does (the stages are the \
            worker's, total is the caller's, handing over included); --decode-isolation none decodes \
            in this process. A photo may take --validation-timeout seconds, as in the daemon.

            """ + settingsHelp
    )

    /// The checks' settings and the deadline of one photo.
    static let settingsCatalog = ValidationSettings.settings + SettingsCatalog([.limitsValidationTimeoutSeconds])

    @Argument(help: "Photo files to time.")
    var files: [String]

    @Option(help: "Timed runs per photo.")
    var iterations: Int = 20

    @Option(name: .customLong("type"), help: "Photo type: room or inspiration.")
    var photoType: PhotoTypeArgument = .room

    @Flag(name: .customLong("content-preview"), help: "Also time making the content check's preview JPEG (stage content_preview, part of total).")
    var contentPreview = false

    @Flag(inversion: .prefixedNo, help: """
        Make each photo's duplicate fingerprint (stage fingerprint, part of total), as `validate --duplicates folder` and an upload \
        with a project do; --no-fingerprint times the checks as `validate --duplicates off` runs them, with no fingerprint made.
        """)
    var fingerprint = true

    @OptionGroup var settingFlags: SettingFlags

    mutating func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    mutating func run() async throws {
        let (settings, deadline) = try await settingFlags.validationAndDeadline(Self.settingsCatalog, command: "bench", environment: ProcessInfo.processInfo.environment)
        let validator = try PhotoValidator.configured(settings: settings, threads: 1, photoTimeLimit: deadline)
        defer { validator.isolation?.shutdown() }
        // The decoder in this process, for the stages timed beside the checks (the JPEG floor, the plan).
        let decoder = try InProcessChecks(settings: settings)
        let previews = contentPreview ? PreviewBounds() : nil
        var photos: [BenchReport.Photo] = []
        for file in files {
            let bytes: Data
            do {
                bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ValidationError("cannot read \(file): \(PhotoCollector.reason(error))")
            }
            var runs: [StageTimings] = []
            var floors: [Double] = []
            var scans: [Double] = []
            var declared: [Double] = []
            var last: ValidatePhotoOutput?
            let plan = bytes.withUnsafeBytes { decoder.plan(for: $0) }
            let floorScale = bytes.withUnsafeBytes { FormatSniffer.sniff($0) == .format(.jpeg) } ? plan?.scaleNumerator : nil
            for iteration in 0...iterations {
                if let floorScale {
                    let start = ContinuousClock.now
                    let floor = try? bytes.withUnsafeBytes { bytes throws(DecodeFailure) in
                        try decoder.decodeJPEGLumaFloor(bytes, scaleNumerator: floorScale)
                    }
                    if floor != nil, iteration > 0 { floors.append((ContinuousClock.now - start).milliseconds) }
                }
                // With the preview, made whether or not the photo passed so every photo gets the
                // figure, from the same decode (JPEG, HEIC) as the service makes it.
                let (output, preview) = bytes.withUnsafeBytes { bytes in
                    validator.decoding.validate(bytes, as: photoType.value, previews: previews, evenIfFailed: previews != nil, fingerprint: fingerprint,
                                                deadline: nil, waitingPhotos: 0)
                }
                let timings = output.details.timingsMs
                if let preview, iteration == 0 {
                    let made = try preview.get()
                    StandardStreams.error("\(file): preview \(made.width)x\(made.height), \(made.jpeg.count) bytes")
                }
                if iteration > 0 { runs.append(timings) }
                let caps = settings.decodeCostCaps
                bytes.withUnsafeBytes { bytes in
                    let start = ContinuousClock.now
                    let size = DeclaredSize(bytes)
                    let read = ContinuousClock.now
                    try? caps.check(bytes, format: size?.format ?? .jpeg)
                    if iteration > 0 {
                        declared.append((read - start).milliseconds)
                        scans.append((ContinuousClock.now - read).milliseconds)
                    }
                }
                last = output
            }
            var photo = BenchReport.Photo(path: file, bytes: bytes.count, output: last!, runs: runs, decoder: plan?.decoder.rawValue)
            if !floors.isEmpty {
                photo.stagesMs["jpeg_luma_floor"] = BenchReport.Figures(floors)
            }
            photo.stagesMs["cost_caps"] = BenchReport.Figures(scans)
            photo.stagesMs["declared_size"] = BenchReport.Figures(declared)
            photos.append(photo)
        }
        let report = BenchReport(
            libvips: DecoderRuntime.libvipsVersion,
            analysisSize: settings.analysisScale.description,
            iterations: iterations,
            photos: photos
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        StandardStreams.output(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}
