import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

extension ContentCheckConfiguration {
    /// The settings of the content check (declared in `Setting+ContentCheck.swift`).
    package static let settings = SettingsCatalog([
        .contentProvider, .contentBaseUrl, .contentModel, .contentApiKey, .contentApiKeyFile, .contentPolicy, .contentRoom,
        .contentInspiration, .contentTimeoutSeconds, .contentMaxConcurrent, .contentQueueWaitSeconds, .contentMaxAttempts,
        .contentRetryInitialSeconds, .contentRetryMaxSeconds, .contentBreakerFailures, .contentBreakerOpenSeconds,
        .contentCacheEntries, .contentMaxOutputTokens, .contentTokenLimitField, .contentResponseFormat, .contentInputPrice,
        .contentOutputPrice,
    ])

    /// The configuration `reader` resolves over the settings' defaults (credential files reach it
    /// as a provider of the reader, `ConfigurationSources.credentials(environment:)`). The
    /// defaults that depend on the provider (base URL, model, policy) are computed here only.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is unusable.
    package init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingsReader(reader: reader, catalog: Self.settings)
        provider = try settings.choice(.contentProvider, of: ContentProviderKind.self)
        let defaultURL = provider == .openai ? "https://api.openai.com" : "https://api.anthropic.com"
        baseURL = settings.stringIfSet(.contentBaseUrl) ?? defaultURL
        guard let scheme = URL(string: baseURL)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw ConfigurationError(source: Setting.contentBaseUrl.key, value: baseURL, expected: "an http:// or https:// URL")
        }
        while baseURL.hasSuffix("/") { baseURL.removeLast() }
        model = settings.stringIfSet(.contentModel) ?? (provider == .anthropic ? Self.defaultAnthropicModel : "")
        if provider == .openai, model.isEmpty {
            throw ConfigurationError(source: Setting.contentProvider.key, value: "openai", expected: "\(Setting.contentModel.key) to be set as well")
        }
        apiKey = try settings.secret(.contentApiKey).map(APIKey.init)
        if provider == .anthropic, apiKey == nil {
            throw ConfigurationError(source: Setting.contentProvider.key, value: "anthropic", expected: "an API key in \(Setting.contentApiKey.key), \(Setting.contentApiKeyFile.key) or the credential file \(ConfigurationSources.credentialFileName(for: Setting.contentApiKey.key))")
        }
        policy = try settings.choiceIfSet(.contentPolicy, of: ContentCheckPolicy.self) ?? (provider == .none ? .off : .failOpen)
        if policy != .off, provider == .none {
            throw ConfigurationError(source: Setting.contentPolicy.key, value: policy.rawValue, expected: "off unless \(Setting.contentProvider.key) is set")
        }
        roomEnabled = settings.bool(.contentRoom)
        inspirationEnabled = settings.bool(.contentInspiration)
        timeout = try settings.seconds(.contentTimeoutSeconds)
        maximumConcurrentCalls = try settings.integer(.contentMaxConcurrent)
        queueWait = .milliseconds(Int64(try settings.number(.contentQueueWaitSeconds) * 1000))
        maximumAttempts = try settings.integer(.contentMaxAttempts)
        retryInitialDelay = try settings.seconds(.contentRetryInitialSeconds)
        retryMaximumDelay = try settings.seconds(.contentRetryMaxSeconds)
        breakerFailureThreshold = try settings.integer(.contentBreakerFailures)
        breakerOpenDuration = try settings.seconds(.contentBreakerOpenSeconds)
        cacheEntries = try settings.integer(.contentCacheEntries)
        maximumOutputTokens = try settings.integer(.contentMaxOutputTokens)
        responseFormat = try settings.choice(.contentResponseFormat, of: ResponseFormatStyle.self)
        let field = settings.string(.contentTokenLimitField)
        if field.lowercased() == "auto" {
            tokenLimitField = nil
        } else {
            guard let chosen = TokenLimitField(rawValue: field.lowercased()) else {
                throw ConfigurationError(source: Setting.contentTokenLimitField.key, value: field, expected: Setting.contentTokenLimitField.expected)
            }
            tokenLimitField = chosen
        }
        inputDollarsPerMillionTokens = try settings.number(.contentInputPrice)
        outputDollarsPerMillionTokens = try settings.number(.contentOutputPrice)
    }
}
