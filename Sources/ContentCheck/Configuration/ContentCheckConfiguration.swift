import PhotoValidation
import ValidatorConfiguration

/// How the content check runs: provider, model, key, policy, deadlines and resilience limits.
/// Resolved once from configuration (see `ContentCheckConfiguration+ConfigReader.swift`), whose
/// settings' declarations (`Setting+ContentCheck.swift`) hold the defaults.
package struct ContentCheckConfiguration: Sendable {
    /// Anthropic's default model.
    package static let defaultAnthropicModel = "claude-haiku-4-5-20251001"

    /// The provider's wire protocol.
    package var provider: ContentProviderKind
    /// The provider's base URL (`https://api.anthropic.com`, `https://api.openai.com`,
    /// `http://127.0.0.1:11434` for Ollama...).
    package var baseURL: String
    /// The model asked.
    package var model: String
    /// The API key, when the provider needs one.
    package var apiKey: APIKey?
    /// What an error means for the photo.
    package var policy: ContentCheckPolicy
    /// Whether room photos are checked.
    package var roomEnabled: Bool
    /// Whether inspiration photos are checked.
    package var inspirationEnabled: Bool
    /// One deadline for the whole check: queueing, every attempt and every backoff.
    package var timeout: Duration
    /// Provider calls in flight at once.
    package var maximumConcurrentCalls: Int
    /// How long a check waits for a place among `maximumConcurrentCalls` before the policy applies.
    package var queueWait: Duration
    /// Attempts per check, the first included.
    package var maximumAttempts: Int
    /// The first retry delay; it doubles per attempt, with equal jitter (a random point in its upper half).
    package var retryInitialDelay: Duration
    /// The longest retry delay (a longer `retry-after` gives up instead of waiting past the deadline).
    package var retryMaximumDelay: Duration
    /// Consecutive provider failures that open the circuit breaker.
    package var breakerFailureThreshold: Int
    /// How long the breaker stays open before one probe is let through.
    package var breakerOpenDuration: Duration
    /// Answers kept in the in-memory cache (0 turns it off).
    package var cacheEntries: Int
    /// The most tokens the model may answer with.
    package var maximumOutputTokens: Int
    /// The chat-completions field of that limit (OpenAI-compatible only), or nil for the one the
    /// base URL's server wants (`TokenLimitField.default(forBaseURL:)`).
    package var tokenLimitField: TokenLimitField?
    /// How an OpenAI-compatible request asks for the schema (`json_schema`, or the older
    /// `json_object` with a `schema` that llama-cpp-python's server takes).
    package var responseFormat: ResponseFormatStyle
    /// US dollars per million input tokens, for cost estimates.
    package var inputDollarsPerMillionTokens: Double
    /// US dollars per million output tokens, for cost estimates.
    package var outputDollarsPerMillionTokens: Double

    /// The defaults of `ContentCheckConfiguration.settings`: no provider, policy off.
    package init() {
        // Only a default that is not a value its setting accepts could throw; a test resolves them.
        try! self.init(reader: ConfigurationSources.nothingSet)
    }

    /// True when photos of `photoType` are sent to the classifier.
    package func isEnabled(for photoType: PhotoType) -> Bool {
        guard policy != .off, provider != .none else { return false }
        switch photoType {
        case .room: return roomEnabled
        case .inspiration: return inspirationEnabled
        }
    }
}
