import ValidatorConfiguration

/// The settings of the content check, each declared once: its catalog lists it and its read names it.
extension Setting {
    /// The setting `content.provider`.
    package static let contentProvider = Setting("content.provider", .choice(ContentProviderKind.allCases.map(\.rawValue)),
        default: "none", flag: "content-provider",
        "vision model for the content check: none, anthropic or openai (any OpenAI-compatible server)")

    /// The setting `content.base_url`.
    package static let contentBaseUrl = Setting("content.base_url", .text,
        computed: "https://api.anthropic.com or https://api.openai.com", flag: "content-base-url",
        "provider base URL")

    /// The setting `content.model`.
    package static let contentModel = Setting("content.model", .text,
        computed: "\(ContentCheckConfiguration.defaultAnthropicModel) for anthropic; required for openai", flag: "content-model",
        "model")

    /// The setting `content.api_key`.
    package static let contentApiKey = Setting("content.api_key", .text, secret: true,
        "provider API key (or content.api_key_file, or the credential file content-api-key)")

    /// The setting `content.api_key_file`.
    package static let contentApiKeyFile = Setting("content.api_key_file", .path, flag: "content-api-key-file",
        "file holding the provider API key (read once at start)")

    /// The setting `content.policy`.
    package static let contentPolicy = Setting("content.policy", .choice(ContentCheckPolicy.allCases.map(\.rawValue)),
        computed: "off without a provider, fail-open with one", flag: "content-policy",
        "what a photo gets when the provider cannot answer: off, fail-open or fail-closed")

    /// The setting `content.room`.
    package static let contentRoom = Setting("content.room", .boolean, default: "true", flag: "content-room", "check room photos")

    /// The setting `content.inspiration`.
    package static let contentInspiration = Setting("content.inspiration", .boolean, default: "true", flag: "content-inspiration",
        "check inspiration photos")

    /// The setting `content.timeout_seconds`.
    package static let contentTimeoutSeconds = Setting("content.timeout_seconds", .seconds, default: "10", flag: "content-timeout",
        "deadline for one check, retries included")

    /// The setting `content.max_concurrent`.
    package static let contentMaxConcurrent = Setting("content.max_concurrent", .integer(1...1024),
        default: "8", flag: "content-max-concurrent",
        "provider calls in flight at once")

    /// The setting `content.queue_wait_seconds`.
    package static let contentQueueWaitSeconds = Setting("content.queue_wait_seconds", .number(0...1_000_000),
        default: "2", flag: "content-queue-wait-seconds",
        "longest wait for a place among them before the policy applies")

    /// The setting `content.max_attempts`.
    package static let contentMaxAttempts = Setting("content.max_attempts", .integer(1...10), default: "4", flag: "content-max-attempts",
        "attempts per check, the first included")

    /// The setting `content.retry_initial_seconds`.
    package static let contentRetryInitialSeconds = Setting("content.retry_initial_seconds", .seconds,
        default: "0.25", flag: "content-retry-initial-seconds",
        "first retry delay, doubling, each wait a random point in its upper half (equal jitter)")

    /// The setting `content.retry_max_seconds`.
    package static let contentRetryMaxSeconds = Setting("content.retry_max_seconds", .seconds,
        default: "4", flag: "content-retry-max-seconds",
        "longest retry delay")

    /// The setting `content.breaker_failures`.
    package static let contentBreakerFailures = Setting("content.breaker_failures", .integer(1...1000),
        default: "5", flag: "content-breaker-failures",
        "consecutive failures that open the circuit breaker")

    /// The setting `content.breaker_open_seconds`.
    package static let contentBreakerOpenSeconds = Setting("content.breaker_open_seconds", .seconds,
        default: "30", flag: "content-breaker-open-seconds",
        "seconds the breaker stays open before a probe")

    /// The setting `content.cache_entries`.
    package static let contentCacheEntries = Setting("content.cache_entries", .integer(0...10_000_000),
        default: "10000", flag: "content-cache-entries",
        "answers kept in memory, 0 for none")

    /// The setting `content.max_output_tokens`.
    package static let contentMaxOutputTokens = Setting("content.max_output_tokens", .integer(50...8192),
        default: "300", flag: "content-max-output-tokens",
        "most tokens the model may answer with")

    /// The setting `content.token_limit_field`.
    package static let contentTokenLimitField = Setting("content.token_limit_field", .choice(["auto"] + TokenLimitField.allCases.map(\.rawValue)),
        default: "auto", flag: "content-token-limit-field",
        "the OpenAI-compatible request field of that limit: auto is max_completion_tokens for api.openai.com and Azure OpenAI, max_tokens for any other server")

    /// The setting `content.response_format`.
    package static let contentResponseFormat = Setting("content.response_format", .choice(ResponseFormatStyle.allCases.map(\.rawValue)),
        default: "json_schema", flag: "content-response-format",
        "how an OpenAI-compatible request asks for the answer's schema: json_schema (OpenAI, vLLM, llama.cpp's llama-server, Ollama) or json_object with a schema (llama-cpp-python's server)")

    /// The setting `content.input_price`.
    package static let contentInputPrice = Setting("content.input_price", .number(0...1_000_000), default: "1", flag: "content-input-price",
        "US dollars per million input tokens, for estimates (Claude Haiku 4.5's)")

    /// The setting `content.output_price`.
    package static let contentOutputPrice = Setting("content.output_price", .number(0...1_000_000),
        default: "5", flag: "content-output-price",
        "US dollars per million output tokens, for estimates (Claude Haiku 4.5's)")
}
