import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

extension ContentCheckConfiguration {
    /// The settings of the content check.
    public static let settings = SettingsCatalog([
        Setting("content.provider", .choice(ContentProviderKind.allCases.map(\.rawValue)), default: "none", flag: "content-provider",
                "vision model for the content check: none, anthropic or openai (any OpenAI-compatible server)"),
        Setting("content.base_url", .text, default: "https://api.anthropic.com or https://api.openai.com", flag: "content-base-url", "provider base URL"),
        Setting("content.model", .text, default: "claude-haiku-4-5-20251001 for anthropic; required for openai", flag: "content-model", "model"),
        Setting("content.api_key", .text, secret: true, "provider API key (or content.api_key_file, or the credential file content-api-key)"),
        Setting("content.api_key_file", .path, flag: "content-api-key-file", "file holding the provider API key (read once at start)"),
        Setting("content.policy", .choice(ContentCheckPolicy.allCases.map(\.rawValue)), default: "off without a provider, fail-open with one",
                flag: "content-policy", "what a photo gets when the provider cannot answer: off, fail-open or fail-closed"),
        Setting("content.room", .boolean, default: "true", flag: "content-room", "check room photos"),
        Setting("content.inspiration", .boolean, default: "true", flag: "content-inspiration", "check inspiration photos"),
        Setting("content.timeout_seconds", .seconds, default: "10", flag: "content-timeout", "deadline for one check, retries included"),
        Setting("content.max_concurrent", .integer(1...1024), default: "8", flag: "content-max-concurrent", "provider calls in flight at once"),
        Setting("content.queue_wait_seconds", .number(0...1_000_000), default: "2", flag: "content-queue-wait-seconds",
                "longest wait for a place among them before the policy applies"),
        Setting("content.max_attempts", .integer(1...10), default: "4", flag: "content-max-attempts", "attempts per check, the first included"),
        Setting("content.retry_initial_seconds", .seconds, default: "0.25", flag: "content-retry-initial-seconds",
                "first retry delay, doubling, each wait a random point in its upper half (equal jitter)"),
        Setting("content.retry_max_seconds", .seconds, default: "4", flag: "content-retry-max-seconds", "longest retry delay"),
        Setting("content.breaker_failures", .integer(1...1000), default: "5", flag: "content-breaker-failures", "consecutive failures that open the circuit breaker"),
        Setting("content.breaker_open_seconds", .seconds, default: "30", flag: "content-breaker-open-seconds", "seconds the breaker stays open before a probe"),
        Setting("content.cache_entries", .integer(0...10_000_000), default: "10000", flag: "content-cache-entries", "answers kept in memory, 0 for none"),
        Setting("content.max_output_tokens", .integer(50...8192), default: "300", flag: "content-max-output-tokens", "most tokens the model may answer with"),
        Setting("content.token_limit_field", .choice(["auto"] + TokenLimitField.allCases.map(\.rawValue)), default: "auto", flag: "content-token-limit-field",
                "the OpenAI-compatible request field of that limit: auto is max_completion_tokens for api.openai.com and Azure OpenAI, max_tokens for any other server"),
        Setting("content.response_format", .choice(ResponseFormatStyle.allCases.map(\.rawValue)), default: "json_schema", flag: "content-response-format",
                "how an OpenAI-compatible request asks for the answer's schema: json_schema (OpenAI, vLLM, llama.cpp's llama-server, Ollama) or json_object with a schema (llama-cpp-python's server)"),
        Setting("content.input_price", .number(0...1_000_000), default: "1, Haiku 4.5", flag: "content-input-price", "US dollars per million input tokens, for estimates"),
        Setting("content.output_price", .number(0...1_000_000), default: "5, Haiku 4.5", flag: "content-output-price", "US dollars per million output tokens, for estimates"),
    ])

    /// The configuration `reader` resolves over the defaults (credential files reach it as a
    /// provider of the reader, `ConfigurationSources.credentials(environment:)`).
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is unusable.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader, catalog: Self.settings)
        provider = try settings.choice("content.provider", of: ContentProviderKind.self) ?? provider
        let defaultURL = provider == .openai ? "https://api.openai.com" : "https://api.anthropic.com"
        baseURL = settings.string("content.base_url") ?? defaultURL
        guard let scheme = URL(string: baseURL)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw ConfigurationError(source: "content.base_url", value: baseURL, expected: "an http:// or https:// URL")
        }
        while baseURL.hasSuffix("/") { baseURL.removeLast() }
        model = settings.string("content.model") ?? (provider == .anthropic ? Self.defaultAnthropicModel : "")
        if provider == .openai, model.isEmpty {
            throw ConfigurationError(source: "content.provider", value: "openai", expected: "content.model to be set as well")
        }
        apiKey = try settings.secret("content.api_key").map(APIKey.init)
        if provider == .anthropic, apiKey == nil {
            throw ConfigurationError(source: "content.provider", value: "anthropic", expected: "an API key in content.api_key, content.api_key_file or the credential file \(ConfigurationSources.credentialFileName(for: "content.api_key"))")
        }
        policy = try settings.choice("content.policy", of: ContentCheckPolicy.self) ?? (provider == .none ? .off : .failOpen)
        if policy != .off, provider == .none {
            throw ConfigurationError(source: "content.policy", value: policy.rawValue, expected: "off unless content.provider is set")
        }
        roomEnabled = settings.bool("content.room") ?? roomEnabled
        inspirationEnabled = settings.bool("content.inspiration") ?? inspirationEnabled
        timeout = try settings.seconds("content.timeout_seconds") ?? timeout
        maximumConcurrentCalls = try settings.integer("content.max_concurrent") ?? maximumConcurrentCalls
        queueWait = try settings.number("content.queue_wait_seconds").map { .milliseconds(Int64($0 * 1000)) } ?? queueWait
        maximumAttempts = try settings.integer("content.max_attempts") ?? maximumAttempts
        retryInitialDelay = try settings.seconds("content.retry_initial_seconds") ?? retryInitialDelay
        retryMaximumDelay = try settings.seconds("content.retry_max_seconds") ?? retryMaximumDelay
        breakerFailureThreshold = try settings.integer("content.breaker_failures") ?? breakerFailureThreshold
        breakerOpenDuration = try settings.seconds("content.breaker_open_seconds") ?? breakerOpenDuration
        cacheEntries = try settings.integer("content.cache_entries") ?? cacheEntries
        maximumOutputTokens = try settings.integer("content.max_output_tokens") ?? maximumOutputTokens
        responseFormat = try settings.choice("content.response_format", of: ResponseFormatStyle.self) ?? responseFormat
        if let field = settings.string("content.token_limit_field"), field.lowercased() != "auto" {
            guard let chosen = TokenLimitField(rawValue: field.lowercased()) else {
                throw ConfigurationError(source: "content.token_limit_field", value: field, expected: Self.settings["content.token_limit_field"].expected)
            }
            tokenLimitField = chosen
        }
        inputDollarsPerMillionTokens = try settings.number("content.input_price") ?? inputDollarsPerMillionTokens
        outputDollarsPerMillionTokens = try settings.number("content.output_price") ?? outputDollarsPerMillionTokens
    }
}
