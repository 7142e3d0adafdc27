import ArgumentParser
import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

/// Flags that set the thresholds and limits of the checks for the batch commands; names and help
/// come from `ValidationSettings.settings`, and each overrides its environment variable.
struct CheckOptions: ParsableArguments {
    private static let catalog = ValidationSettings.settings

    @Option(name: .setting("room.min_side", in: catalog), help: .setting("room.min_side", in: catalog))
    var roomMinimumShortSide: String?

    @Option(name: .setting("inspiration.min_side", in: catalog), help: .setting("inspiration.min_side", in: catalog))
    var inspirationMinimumShortSide: String?

    @Option(name: .setting("room.blur_threshold", in: catalog), help: .setting("room.blur_threshold", in: catalog))
    var roomBlurThreshold: String?

    @Option(name: .setting("inspiration.blur_threshold", in: catalog), help: .setting("inspiration.blur_threshold", in: catalog))
    var inspirationBlurThreshold: String?

    @Option(name: .setting("pixel_limit", in: catalog), help: .setting("pixel_limit", in: catalog))
    var pixelLimit: String?

    @Option(name: .setting("analysis_size", in: catalog), help: .setting("analysis_size", in: catalog))
    var analysisSize: String?

    @Option(name: .setting("decode_memory_mib", in: catalog), help: .setting("decode_memory_mib", in: catalog))
    var decodeMemory: String?

    @Option(name: .setting("decode_isolation", in: catalog), help: .setting("decode_isolation", in: catalog))
    var decodeIsolation: String?

    @Option(name: .setting("decode_worker_executable", in: catalog), help: .setting("decode_worker_executable", in: catalog))
    var decodeWorkerExecutable: String?

    /// These flags as configuration values, by key, typed by their settings.
    func configurationValues() throws -> [String: ConfigContent] {
        let given: [(String, String?)] = [
            ("room.min_side", roomMinimumShortSide), ("inspiration.min_side", inspirationMinimumShortSide),
            ("room.blur_threshold", roomBlurThreshold), ("inspiration.blur_threshold", inspirationBlurThreshold),
            ("pixel_limit", pixelLimit), ("analysis_size", analysisSize), ("decode_memory_mib", decodeMemory),
            ("decode_isolation", decodeIsolation), ("decode_worker_executable", decodeWorkerExecutable),
        ]
        return try Self.catalog.values(given)
    }

    /// The settings: these flags over `PHOTO_VALIDATOR_*` variables in `environment` over defaults.
    func resolve(environment: [String: String]) throws -> ValidationSettings {
        let audit = ConfigurationAudit()
        let reader = ConfigurationSources.reader(flags: try configurationValues(), environment: environment, audit: audit)
        let settings = try ValidationSettings(reader: reader)
        try audit.checkConversions()
        return settings
    }
}
