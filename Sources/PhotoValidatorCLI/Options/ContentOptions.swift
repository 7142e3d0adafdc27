import ArgumentParser
import Configuration
import ContentCheck
import PhotoValidation
import ValidatorConfiguration

/// Flags of the content check for the batch commands; names and help come from
/// `ContentCheckConfiguration.settings`. The API key is never a flag (it would show in `ps`): it
/// comes from the environment, a file or systemd credentials.
struct ContentOptions: ParsableArguments {
    private static let catalog = ContentCheckConfiguration.settings

    @Option(name: .setting("content.provider", in: catalog), help: .setting("content.provider", in: catalog))
    var provider: String?

    @Option(name: .setting("content.base_url", in: catalog), help: .setting("content.base_url", in: catalog))
    var baseURL: String?

    @Option(name: .setting("content.model", in: catalog), help: .setting("content.model", in: catalog))
    var model: String?

    @Option(name: .setting("content.api_key_file", in: catalog), help: .setting("content.api_key_file", in: catalog))
    var apiKeyFile: String?

    @Option(name: .setting("content.policy", in: catalog), help: .setting("content.policy", in: catalog))
    var policy: String?

    @Option(name: .setting("content.timeout_seconds", in: catalog), help: .setting("content.timeout_seconds", in: catalog))
    var timeout: String?

    /// These flags as configuration values, by key, typed by their settings.
    func configurationValues() throws -> [String: ConfigContent] {
        try Self.catalog.values([
            ("content.provider", provider), ("content.base_url", baseURL), ("content.model", model),
            ("content.api_key_file", apiKeyFile), ("content.policy", policy), ("content.timeout_seconds", timeout),
        ])
    }

    /// The content check these flags over `PHOTO_VALIDATOR_CONTENT_*` variables resolve to, for
    /// the batch commands; a usage error when no provider is configured.
    func resolveForBatch(environment: [String: String]) async throws -> ContentCheckConfiguration {
        let audit = ConfigurationAudit()
        let reader = ConfigurationSources.reader(flags: try configurationValues(), environment: environment,
                                                 credentials: try await ConfigurationSources.credentials(environment: environment), audit: audit)
        let configuration = try ContentCheckConfiguration(reader: reader)
        try audit.checkConversions()
        guard configuration.provider != .none, configuration.policy != .off else {
            throw ValidationError("the content check needs a provider: --content-provider anthropic|openai or PHOTO_VALIDATOR_CONTENT_PROVIDER (see docs/content-check.md)")
        }
        return configuration
    }
}
