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

    /// The settings of signal forwarding.
    public static let settings = SettingsCatalog([
        Setting("signal.target", .choice(Target.allCases.map(\.rawValue)), default: "none", flag: "signal-target", "where photo_added signals go"),
        Setting("signal.name", .text, default: "photo_added", flag: "signal-name", "signal name"),
        Setting("temporal.url", .text, default: "http://127.0.0.1:7243", flag: "temporal-url", "Temporal HTTP API base URL"),
        Setting("temporal.namespace", .text, default: "default", flag: "temporal-namespace", "Temporal namespace"),
        Setting("temporal.api_key", .text, secret: true, "Temporal Cloud API key, sent as a bearer token"),
        Setting("temporal.identity", .text, default: "photo-validator@HOST", flag: "temporal-identity", "identity shown in the workflow history"),
        Setting("webhook.url", .text, flag: "webhook-url", secret: true, "URL the signed photo_added event is posted to (redacted: it may carry a token)"),
        Setting("webhook.secret", .text, secret: true, "HMAC-SHA256 key for the webhook signature"),
        Setting("outbox.path", .path, default: "$STATE_DIRECTORY/outbox.sqlite, else ./photo-validator-outbox.sqlite", flag: "outbox", "outbox SQLite file"),
        Setting("outbox.max_age_hours", .number(0...8760), default: "48", flag: "outbox-max-age-hours",
                "hours a signal may stay undelivered before it is a dead letter"),
        Setting("outbox.retry_initial_seconds", .seconds, default: "1", flag: "outbox-retry-initial-seconds", "first retry delay"),
        Setting("outbox.retry_max_seconds", .seconds, default: "300", flag: "outbox-retry-max-seconds", "longest retry delay"),
        Setting("outbox.min_free_mib", .integer(0...1_048_576), default: "16", flag: "outbox-min-free",
                "free space the outbox's volume keeps, MiB; below it uploads get 503 and /readyz fails"),
    ])

    /// The configuration `settings` resolves over the defaults.
    init(settings: SettingsReader) throws(ConfigurationError) {
        target = try settings.choice("signal.target", of: Target.self) ?? target
        name = settings.string("signal.name") ?? name
        temporalURL = settings.string("temporal.url") ?? temporalURL
        temporalNamespace = settings.string("temporal.namespace") ?? temporalNamespace
        temporalAPIKey = try settings.secret("temporal.api_key")
        identity = settings.string("temporal.identity") ?? identity
        webhookURL = try settings.secret("webhook.url")
        webhookSecret = try settings.secret("webhook.secret")
        outboxPath = settings.string("outbox.path") ?? outboxPath
        if let hours = try settings.number("outbox.max_age_hours") {
            guard hours > 0 else {
                throw ConfigurationError(source: "outbox.max_age_hours", value: String(hours), expected: "hours above 0, at most 8760 (a year)")
            }
            retry.maximumAge = .seconds(hours * 3600)
        }
        outboxMinimumFreeBytes = (try settings.integer("outbox.min_free_mib")).map { Int64($0) << 20 } ?? outboxMinimumFreeBytes
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
