import ArgumentParser
import Configuration
import ContentCheck
import PhotoValidation
import ValidatorConfiguration

/// The setting flags of a batch command (a `SettingsCommand`): each `--flag value` of its catalog,
/// gathered from the command line as `--setting=--flag=value` so that a setting's value is never
/// taken for a path, read over `PHOTO_VALIDATOR_*` variables and credentials over the settings'
/// defaults.
struct SettingFlags: ParsableArguments {
    /// The setting flags as given, each `--flag=value`.
    @Option(name: .customLong("setting"), help: .hidden)
    var given: [String] = []

    /// The command-line name `runFromCommandLine` hands each gathered setting flag under.
    static let gatheringFlag = "--setting"

    /// What `reading` reads from these flags (checked against `catalog`, whose unknown flags are
    /// an error naming `command`'s help) over `environment`'s variables and credentials over the
    /// defaults.
    ///
    /// - Throws: `ConfigurationError` for an unknown flag, or a value of the wrong type or out of range.
    func resolve<Resolved>(
        _ catalog: SettingsCatalog, command: String, environment: [String: String],
        reading: (SettingsReader) throws -> Resolved
    ) async throws -> Resolved {
        let flags = try catalog.values(fromFlags: given, listing: "`photo-validator \(command) --help` lists its settings")
        let audit = ConfigurationAudit()
        let reader = ConfigurationSources.reader(flags: flags, environment: environment,
                                                 credentials: try await ConfigurationSources.credentials(environment: environment), audit: audit)
        let resolved = try reading(SettingsReader(reader: reader, catalog: catalog))
        try audit.checkConversions()
        return resolved
    }

    /// The checks' settings these flags resolve to.
    ///
    /// - Throws: `ConfigurationError` for an unknown flag, or a value of the wrong type or out of range.
    func validation(_ catalog: SettingsCatalog, command: String, environment: [String: String]) async throws -> ValidationSettings {
        try await resolve(catalog, command: command, environment: environment) { settings in
            try ValidationSettings(reader: settings.reader)
        }
    }

    /// The checks' settings and the deadline of one photo (`limits.validation_timeout_seconds`, as
    /// the daemon's) these flags resolve to, for `validate`, `bench` and `tune`.
    ///
    /// - Throws: `ConfigurationError` for an unknown flag, or a value of the wrong type or out of range.
    func validationAndDeadline(_ catalog: SettingsCatalog, command: String, environment: [String: String]) async throws -> (ValidationSettings, Duration) {
        try await resolve(catalog, command: command, environment: environment) { settings in
            (try ValidationSettings(reader: settings.reader), try settings.seconds(.limitsValidationTimeoutSeconds))
        }
    }

    /// The scores cache's key file these flags set (`scores_cache.key_file`), or nil for the default.
    ///
    /// - Throws: `ConfigurationError` for an unknown flag, or a value of the wrong type.
    func scoresCacheKeyFile(_ catalog: SettingsCatalog, command: String, environment: [String: String]) async throws -> String? {
        try await resolve(catalog, command: command, environment: environment) { settings in
            settings.stringIfSet(.scoresCacheKeyFile)
        }
    }

    /// The content check these flags resolve to for a batch command, which needs a provider.
    ///
    /// - Throws: `ConfigurationError` for a wrong setting, `ValidationError` when no provider is set.
    func contentCheck(_ catalog: SettingsCatalog, command: String, environment: [String: String]) async throws -> ContentCheckConfiguration {
        let configuration = try await resolve(catalog, command: command, environment: environment) { settings in
            try ContentCheckConfiguration(reader: settings.reader)
        }
        guard configuration.provider != .none, configuration.policy != .off else {
            throw ValidationError("the content check needs a provider: --content-provider anthropic|openai or PHOTO_VALIDATOR_CONTENT_PROVIDER (see docs/content-check.md)")
        }
        return configuration
    }
}
