import ArgumentParser
import Configuration
import Foundation
import PhotoValidation
import PhotoValidatorServer
import ValidatorConfiguration

/// The daemon's flags: `--config`, and one flag for every setting that is not a secret, as its
/// `Setting` declares it. Each overrides its `PHOTO_VALIDATOR_*` variable, which overrides the
/// JSON configuration file, which overrides the built-in default.
struct ServeOptions: ParsableArguments {
    @Option(help: "JSON configuration file (keys as in `photo-validator config`). [env: PHOTO_VALIDATOR_CONFIG_FILE]")
    var config: String?

    /// The setting flags as given, read against the settings' declarations (so they are not
    /// declared a second time here); `--help` lists them from the same declarations.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var settingArguments: [String] = []

    /// These flags as configuration values, by key.
    ///
    /// - Throws: `ConfigurationError` for an unknown flag or a value of the wrong type.
    func configurationValues() throws(ConfigurationError) -> [String: ConfigContent] {
        try ServiceConfiguration.allSettings.values(fromFlags: settingArguments)
    }

    /// The configuration these flags, `environment` and the configuration file resolve to, and the
    /// audit of where each value came from.
    func resolve(environment: [String: String]) async throws -> (ServiceConfiguration, ConfigurationAudit) {
        try await ServiceConfiguration.resolve(flags: try configurationValues(), configFile: config, environment: environment)
    }
}
