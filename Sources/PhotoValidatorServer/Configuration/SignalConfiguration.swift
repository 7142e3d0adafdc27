import Foundation
import PhotoValidation
import SignalForwarding
import ValidatorConfiguration

/// Where `photo_added` signals go and how the outbox behaves.
public struct SignalConfiguration: Sendable {
    /// The kinds of target.
    public enum Target: String, Sendable, CaseIterable {
        /// Forwarding off: nothing is written to the outbox (the default for a laptop run).
        case none
        /// Temporal's HTTP API.
        case temporal
        /// A signed JSON POST to a URL.
        case webhook
    }

    /// The target kind.
    public var target: Target = .none
    /// The signal name (the current workflow's handler is `add_photo`).
    public var name = "photo_added"
    /// Temporal's HTTP API base URL.
    public var temporalURL = "http://127.0.0.1:7243"
    /// Temporal namespace.
    public var temporalNamespace = "default"
    /// Temporal API key, sent as a bearer token (Temporal Cloud).
    public var temporalAPIKey: String?
    /// The identity shown in the workflow history.
    public var identity = "photo-validator@" + ProcessInfo.processInfo.hostName
    /// The webhook URL.
    public var webhookURL: String?
    /// The webhook's HMAC secret.
    public var webhookSecret: String?
    /// The outbox database file.
    public var outboxPath = "photo-validator-outbox.sqlite"
    /// Backoff and maximum age.
    public var retry = RetryPolicy()
    /// Free space the outbox's volume must keep; below it nothing new is promised.
    public var outboxMinimumFreeBytes: Int64 = 16 << 20

    /// The defaults.
    public init() {}

    /// The configuration keys of signal forwarding.
    public static let configurationKeys: [(key: String, help: String)] = [
        ("signal.target", "none, temporal or webhook (default none)"),
        ("signal.name", "signal name (default photo_added)"),
        ("temporal.url", "Temporal HTTP API base URL (default http://127.0.0.1:7243)"),
        ("temporal.namespace", "Temporal namespace (default default)"),
        ("temporal.api_key", "Temporal Cloud API key, sent as a bearer token (secret)"),
        ("temporal.identity", "identity shown in the workflow history (default photo-validator@HOST)"),
        ("webhook.url", "URL the signed photo_added event is posted to"),
        ("webhook.secret", "HMAC-SHA256 key for the webhook signature (secret)"),
        ("outbox.path", "outbox SQLite file (default $STATE_DIRECTORY/outbox.sqlite, else ./photo-validator-outbox.sqlite)"),
        ("outbox.max_age_hours", "hours a signal may stay undelivered before it is a dead letter (default 48)"),
        ("outbox.retry_initial_seconds", "first retry delay (default 1)"),
        ("outbox.retry_max_seconds", "longest retry delay (default 300)"),
        ("outbox.min_free_mib", "free space the outbox's volume keeps, MiB; below it uploads get 503 and /readyz fails (default 16)"),
    ]

    /// The configuration `settings` resolves over the defaults.
    init(settings: SettingsReader) throws(ConfigurationError) {
        target = try settings.choice("signal.target", of: Target.self) ?? target
        name = settings.string("signal.name") ?? name
        temporalURL = settings.string("temporal.url") ?? temporalURL
        temporalNamespace = settings.string("temporal.namespace") ?? temporalNamespace
        temporalAPIKey = settings.string("temporal.api_key", isSecret: true)
        identity = settings.string("temporal.identity") ?? identity
        webhookURL = settings.string("webhook.url", isSecret: true)
        webhookSecret = settings.string("webhook.secret", isSecret: true)
        outboxPath = settings.string("outbox.path") ?? outboxPath
        if let hours = try settings.number("outbox.max_age_hours") {
            guard hours > 0, hours <= 24 * 365 else {
                throw ConfigurationError(source: "outbox.max_age_hours", value: String(hours), expected: "hours above 0, at most a year")
            }
            retry.maximumAge = .seconds(hours * 3600)
        }
        outboxMinimumFreeBytes = (try settings.integer("outbox.min_free_mib", in: 0...1_048_576)).map { Int64($0) << 20 } ?? outboxMinimumFreeBytes
        retry.initialDelay = try settings.seconds("outbox.retry_initial_seconds") ?? retry.initialDelay
        retry.maximumDelay = try settings.seconds("outbox.retry_max_seconds") ?? retry.maximumDelay
        if retry.initialDelay > retry.maximumDelay {
            throw ConfigurationError(source: "outbox.retry_initial_seconds", value: "\(retry.initialDelay)", expected: "at most outbox.retry_max_seconds")
        }
        for url in [temporalURL, webhookURL].compactMap({ $0 }) where !["http", "https"].contains(URL(string: url)?.scheme?.lowercased() ?? "") {
            throw ConfigurationError(source: "signal URL", value: RedactedURL(url).description, expected: "an http:// or https:// URL")
        }
        if target == .webhook, webhookURL == nil || webhookSecret == nil {
            throw ConfigurationError(source: "signal.target", value: "webhook", expected: "webhook.url and webhook.secret to be set as well")
        }
    }
}
