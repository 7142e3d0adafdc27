import Configuration
import PhotoValidation
import ValidatorConfiguration

extension ServiceConfiguration {
    /// Resolves the daemon's configuration once, into an immutable value: `flags` (by key, as
    /// `photo-validator config` lists them) over `PHOTO_VALIDATOR_*` variables and systemd
    /// credentials in `environment`, over the JSON file at `configFile` (or
    /// `PHOTO_VALIDATOR_CONFIG_FILE`), over the defaults (which honour systemd's `STATE_DIRECTORY`).
    ///
    /// - Returns: the configuration and the audit of where each value came from.
    /// - Throws: `ConfigurationError` for a value of the wrong type or out of range, an unreadable
    ///   file or credential.
    package static func resolve(
        flags: [String: ConfigContent],
        configFile: String?,
        environment: [String: String]
    ) async throws(ConfigurationError) -> (ServiceConfiguration, ConfigurationAudit) {
        let audit = ConfigurationAudit()
        var file: (any ConfigProvider)?
        if let path = configFile ?? environment[ConfigurationSources.configFileVariable] {
            file = try await ConfigurationSources.jsonFile(at: path)
        }
        let manager = ServiceManagerEnvironment(environment: environment)
        let reader = ConfigurationSources.reader(
            flags: flags, environment: environment, credentials: try await ConfigurationSources.credentials(environment: environment),
            file: file, fallback: manager.defaults, audit: audit
        )
        let configuration = try ServiceConfiguration(reader: reader)
        try audit.checkConversions()
        return (configuration, audit)
    }
}
