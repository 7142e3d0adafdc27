import ArgumentParser
import Configuration
import ContentCheck
import PhotoValidation
import ValidatorConfiguration

/// Flags of the content check; each overrides its environment variable. The API key is never a
/// flag (it would show in `ps`): it comes from the environment, a file or systemd credentials.
struct ContentOptions: ParsableArguments {
    @Option(name: .customLong("content-provider"), help: "Vision model for the content check: none, anthropic or openai. [env: PHOTO_VALIDATOR_CONTENT_PROVIDER, default: none]")
    var provider: String?

    @Option(name: .customLong("content-base-url"), help: "Provider base URL. [env: PHOTO_VALIDATOR_CONTENT_BASE_URL]")
    var baseURL: String?

    @Option(name: .customLong("content-model"), help: "Model. [env: PHOTO_VALIDATOR_CONTENT_MODEL, default: claude-haiku-4-5-20251001 for anthropic]")
    var model: String?

    @Option(name: .customLong("content-api-key-file"), help: "File holding the provider API key. [env: PHOTO_VALIDATOR_CONTENT_API_KEY_FILE; or the key in PHOTO_VALIDATOR_CONTENT_API_KEY, or $CREDENTIALS_DIRECTORY/content_api_key]")
    var apiKeyFile: String?

    @Option(name: .customLong("content-policy"), help: "off, fail-open or fail-closed. [env: PHOTO_VALIDATOR_CONTENT_POLICY, default: fail-open with a provider]")
    var policy: String?

    @Option(name: .customLong("content-timeout"), help: "Seconds for one content check, retries included. [env: PHOTO_VALIDATOR_CONTENT_TIMEOUT_SECONDS, default: 10]")
    var timeout: Double?

    /// These flags as configuration values, by key.
    var configurationValues: [String: ConfigContent] {
        var values: [String: ConfigContent] = [:]
        if let provider { values["content.provider"] = .string(provider) }
        if let baseURL { values["content.base_url"] = .string(baseURL) }
        if let model { values["content.model"] = .string(model) }
        if let apiKeyFile { values["content.api_key_file"] = .string(apiKeyFile) }
        if let policy { values["content.policy"] = .string(policy) }
        if let timeout { values["content.timeout_seconds"] = .double(timeout) }
        return values
    }

    /// The content check these flags over `PHOTO_VALIDATOR_CONTENT_*` variables resolve to, for
    /// the batch commands; a usage error when no provider is configured.
    func resolveForBatch(environment: [String: String]) throws -> ContentCheckConfiguration {
        let audit = ConfigurationAudit()
        let reader = ConfigurationSources.reader(flags: configurationValues, environment: environment, audit: audit)
        let configuration: ContentCheckConfiguration
        configuration = try ContentCheckConfiguration(reader: reader, environment: environment)
        try audit.checkConversions()
        guard configuration.provider != .none, configuration.policy != .off else {
            throw ValidationError("the content check needs a provider: --content-provider anthropic|openai or PHOTO_VALIDATOR_CONTENT_PROVIDER (see README, Content check)")
        }
        return configuration
    }
}
