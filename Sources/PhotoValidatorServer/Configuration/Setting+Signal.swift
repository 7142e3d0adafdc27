import SignalForwarding
import ValidatorConfiguration

// The outbox's retry defaults are `RetryPolicy()`'s, in SignalForwarding, which cannot see this
// catalog; the declarations below read them from it, so each is still written in one place.
private let retryDefaults = RetryPolicy()

/// The settings of the signal forwarding, each declared once: its catalog lists it and its read names it.
extension Setting {
    /// The setting `signal.target`.
    package static let signalTarget = Setting("signal.target", .choice(SignalConfiguration.Target.allCases.map(\.rawValue)),
        default: "none", flag: "signal-target",
        "where photo_added signals go")

    /// The setting `signal.name`.
    package static let signalName = Setting("signal.name", .text, default: "photo_added", flag: "signal-name", "signal name")

    /// The setting `temporal.url`.
    package static let temporalUrl = Setting("temporal.url", .text, default: "http://127.0.0.1:7243", flag: "temporal-url",
        "Temporal HTTP API base URL")

    /// The setting `temporal.namespace`.
    package static let temporalNamespace = Setting("temporal.namespace", .text, default: "default", flag: "temporal-namespace",
        "Temporal namespace")

    /// The setting `temporal.api_key`.
    package static let temporalApiKey = Setting("temporal.api_key", .text, secret: true, "Temporal Cloud API key, sent as a bearer token")

    /// The setting `temporal.identity`.
    package static let temporalIdentity = Setting("temporal.identity", .text, computed: "photo-validator@HOST", flag: "temporal-identity",
        "identity shown in the workflow history")

    /// The setting `webhook.url`.
    package static let webhookUrl = Setting("webhook.url", .text, flag: "webhook-url", secret: true,
        "URL the signed photo_added event is posted to (redacted: it may carry a token)")

    /// The setting `webhook.secret`.
    package static let webhookSecret = Setting("webhook.secret", .text, secret: true, "HMAC-SHA256 key for the webhook signature")

    /// The setting `outbox.path`.
    package static let outboxPath = Setting("outbox.path", .path, default: "photo-validator-outbox.sqlite", flag: "outbox",
        "outbox SQLite file (under systemd's StateDirectory=, $STATE_DIRECTORY/outbox.sqlite)")

    /// The setting `outbox.max_age_hours`.
    package static let outboxMaxAgeHours = Setting("outbox.max_age_hours", .number(0...8760),
        default: Setting.text(retryDefaults.maximumAge / .seconds(3600)), flag: "outbox-max-age-hours",
        "hours a signal may stay undelivered before it is a dead letter")

    /// The setting `outbox.retry_initial_seconds`.
    package static let outboxRetryInitialSeconds = Setting("outbox.retry_initial_seconds", .seconds,
        default: Setting.text(retryDefaults.initialDelay / .seconds(1)), flag: "outbox-retry-initial-seconds",
        "first retry delay")

    /// The setting `outbox.retry_max_seconds`.
    package static let outboxRetryMaxSeconds = Setting("outbox.retry_max_seconds", .seconds,
        default: Setting.text(retryDefaults.maximumDelay / .seconds(1)), flag: "outbox-retry-max-seconds",
        "longest retry delay")

    /// The setting `outbox.min_free_mib`.
    package static let outboxMinFreeMib = Setting("outbox.min_free_mib", .integer(0...1_048_576), default: "16", flag: "outbox-min-free",
        "free space the outbox's volume keeps, MiB; below it uploads get 503 and /readyz fails")

    /// The setting `outbox.answers_per_project`.
    package static let outboxAnswersPerProject = Setting("outbox.answers_per_project", .integer(1...1_000_000),
        default: String(IdempotentAnswerLimits.default.answersPerProject), flag: "outbox-answers-per-project",
        "answers to keyed uploads kept per project for their Idempotency-Key; the oldest go first")

    /// The setting `outbox.answers_mib`.
    package static let outboxAnswersMib = Setting("outbox.answers_mib", .integer(1...65_536),
        default: String(IdempotentAnswerLimits.default.totalBytes >> 20), flag: "outbox-answers-mib",
        "MiB of answers to keyed uploads the outbox keeps in all; the oldest go first")
}
