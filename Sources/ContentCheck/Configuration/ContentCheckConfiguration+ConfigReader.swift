import Configuration
import Foundation
import PhotoValidation
import ValidatorConfiguration

extension ContentCheckConfiguration {
    /// The configuration keys of the content check, with what each sets.
    public static let configurationKeys: [(key: String, help: String)] = [
        ("content.provider", "none, anthropic or openai (any OpenAI-compatible server) (default none)"),
        ("content.base_url", "provider base URL (default https://api.anthropic.com or https://api.openai.com)"),
        ("content.model", "model (default claude-haiku-4-5-20251001 for anthropic; required for openai)"),
        ("content.api_key", "provider API key (secret; or content.api_key_file, or $CREDENTIALS_DIRECTORY/content_api_key)"),
        ("content.api_key_file", "file holding the provider API key (read once at start)"),
        ("content.policy", "off, fail-open or fail-closed (default off without a provider, fail-open with one)"),
        ("content.room", "check room photos: true or false (default true)"),
        ("content.inspiration", "check inspiration photos: true or false (default true)"),
        ("content.timeout_seconds", "deadline for one check, retries included (default 10)"),
        ("content.max_concurrent", "provider calls in flight at once (default 8)"),
        ("content.queue_wait_seconds", "longest wait for a place among them before the policy applies (default 2)"),
        ("content.max_attempts", "attempts per check, the first included (default 4)"),
        ("content.retry_initial_seconds", "first retry delay, doubling, each wait a random point in its upper half (equal jitter) (default 0.25)"),
        ("content.retry_max_seconds", "longest retry delay (default 4)"),
        ("content.breaker_failures", "consecutive failures that open the circuit breaker (default 5)"),
        ("content.breaker_open_seconds", "seconds the breaker stays open before a probe (default 30)"),
        ("content.cache_entries", "answers kept in memory, 0 for none (default 10000)"),
        ("content.max_output_tokens", "most tokens the model may answer with (default 300)"),
        ("content.input_price", "US dollars per million input tokens, for estimates (default 1, Haiku 4.5)"),
        ("content.output_price", "US dollars per million output tokens, for estimates (default 5, Haiku 4.5)"),
    ]

    /// The configuration `reader` resolves over the defaults; `environment` (the one resolution
    /// was given, never the process's own) supplies `CREDENTIALS_DIRECTORY` (systemd's
    /// `LoadCredential=`).
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is unusable.
    public init(reader: ConfigReader, environment: [String: String]) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader)
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
        if let key = settings.string("content.api_key", isSecret: true) {
            apiKey = APIKey(key)
        } else if let path = settings.string("content.api_key_file") {
            apiKey = try Self.readKey(path: path, source: "content.api_key_file")
        } else if let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty {
            let path = (directory as NSString).appendingPathComponent(Self.credentialName)
            if FileManager.default.fileExists(atPath: path) {
                apiKey = try Self.readKey(path: path, source: "$CREDENTIALS_DIRECTORY/\(Self.credentialName)")
            }
        }
        if provider == .anthropic, apiKey == nil {
            throw ConfigurationError(source: "content.provider", value: "anthropic", expected: "an API key in content.api_key, content.api_key_file or $CREDENTIALS_DIRECTORY/\(Self.credentialName)")
        }
        policy = try settings.choice("content.policy", of: ContentCheckPolicy.self) ?? (provider == .none ? .off : .failOpen)
        if policy != .off, provider == .none {
            throw ConfigurationError(source: "content.policy", value: policy.rawValue, expected: "off unless content.provider is set")
        }
        roomEnabled = reader.bool(forKey: "content.room") ?? roomEnabled
        inspirationEnabled = reader.bool(forKey: "content.inspiration") ?? inspirationEnabled
        timeout = try settings.seconds("content.timeout_seconds") ?? timeout
        maximumConcurrentCalls = try settings.integer("content.max_concurrent", in: 1...1024) ?? maximumConcurrentCalls
        queueWait = try settings.number("content.queue_wait_seconds").map { .milliseconds(Int64($0 * 1000)) } ?? queueWait
        maximumAttempts = try settings.integer("content.max_attempts", in: 1...10) ?? maximumAttempts
        retryInitialDelay = try settings.seconds("content.retry_initial_seconds") ?? retryInitialDelay
        retryMaximumDelay = try settings.seconds("content.retry_max_seconds") ?? retryMaximumDelay
        breakerFailureThreshold = try settings.integer("content.breaker_failures", in: 1...1000) ?? breakerFailureThreshold
        breakerOpenDuration = try settings.seconds("content.breaker_open_seconds") ?? breakerOpenDuration
        cacheEntries = try settings.integer("content.cache_entries", in: 0...10_000_000) ?? cacheEntries
        maximumOutputTokens = try settings.integer("content.max_output_tokens", in: 50...8192) ?? maximumOutputTokens
        inputDollarsPerMillionTokens = try settings.number("content.input_price") ?? inputDollarsPerMillionTokens
        outputDollarsPerMillionTokens = try settings.number("content.output_price") ?? outputDollarsPerMillionTokens
    }

    private static func readKey(path: String, source: String) throws(ConfigurationError) -> APIKey {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(source: source, value: path, expected: "a readable file (\(error.localizedDescription))")
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else {
            throw ConfigurationError(source: source, value: path, expected: "a file holding a non-empty key")
        }
        return APIKey(key)
    }
}
