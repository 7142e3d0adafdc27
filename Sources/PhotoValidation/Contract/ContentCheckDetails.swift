/// What the content check did for one photo (`details.content`): the verdict, the model's labels
/// and reason, or the error and the policy that decided the answer, with cost and latency.
public struct ContentCheckDetails: Sendable, Codable, Equatable {
    /// How the check ended.
    public enum Outcome: String, Sendable, Codable {
        /// The classifier answered; `verdict` follows from `labels`.
        case classified
        /// The check failed and the fail-open policy let the photo pass.
        case passedOnError = "passed_on_error"
        /// The check failed and the fail-closed policy gave `content_check_unavailable`.
        case failedClosed = "failed_closed"
    }

    /// How the check ended.
    public var outcome: Outcome
    /// `pass`, `content_rejected` or `too_many_people` when classified.
    public var verdict: String?
    /// The model's structured answer, as it gave it.
    public var labels: ContentLabels?
    /// The provider (`anthropic` or `openai`).
    public var provider: String
    /// The model asked.
    public var model: String
    /// The policy in force (`fail-open` or `fail-closed`).
    public var policy: String
    /// The error class when the check failed, such as `timeout` or `http_529`.
    public var error: String?
    /// An operator-facing explanation of `error` (never the API key).
    public var errorDetail: String?
    /// True when the answer came from the in-memory cache.
    public var cached: Bool = false
    /// Provider calls made (retries included; 0 when cached or the breaker was open).
    public var attempts: Int = 0
    /// Input tokens the provider reported.
    public var inputTokens: Int?
    /// Output tokens the provider reported.
    public var outputTokens: Int?
    /// Size of the preview JPEG sent, in bytes.
    public var previewBytes: Int?
    /// Preview width in pixels.
    public var previewWidth: Int?
    /// Preview height in pixels.
    public var previewHeight: Int?

    /// Creates details for a check by `provider` with `model` under `policy`.
    public init(outcome: Outcome, provider: String, model: String, policy: String) {
        self.outcome = outcome
        self.provider = provider
        self.model = model
        self.policy = policy
    }

    enum CodingKeys: String, CodingKey {
        case outcome, verdict, labels, provider, model, policy, error
        case errorDetail = "error_detail"
        case cached, attempts
        case inputTokens = "input_tokens"
        case outputTokens = "output_tokens"
        case previewBytes = "preview_bytes"
        case previewWidth = "preview_width"
        case previewHeight = "preview_height"
    }
}
