import Foundation
import PhotoValidation
import SignalForwarding
import ValidatorConfiguration

/// Where `photo_added` signals go and how the outbox behaves.
package struct SignalConfiguration: Sendable {
    /// The kinds of target.
    package enum Target: String, Sendable, CaseIterable {
        /// Forwarding off: nothing is written to the outbox (the default for a laptop run).
        case none
        /// Temporal's HTTP API.
        case temporal
        /// A signed JSON POST to a URL.
        case webhook
    }

    /// The target kind.
    package var target: Target
    /// The signal name (the current workflow's handler is `add_photo`).
    package var name: String
    /// Temporal's HTTP API base URL.
    package var temporalURL: String
    /// Temporal namespace.
    package var temporalNamespace: String
    /// Temporal API key, sent as a bearer token (Temporal Cloud).
    package var temporalAPIKey: String?
    /// The identity shown in the workflow history.
    package var identity: String
    /// The webhook URL.
    package var webhookURL: String?
    /// The webhook's HMAC secret.
    package var webhookSecret: String?
    /// The outbox database file.
    package var outboxPath: String
    /// Backoff and maximum age.
    package var retry = RetryPolicy()
    /// Free space the outbox's volume must keep; below it nothing new is promised.
    package var outboxMinimumFreeBytes: Int64
    /// How many answers to keyed uploads the outbox keeps.
    package var answerLimits = IdempotentAnswerLimits.default

    /// The settings' defaults.
    package init() {
        // Only a default that is not a value its setting accepts could throw; a test resolves them.
        try! self.init(settings: SettingsReader(reader: ConfigurationSources.nothingSet, catalog: Self.settings))
    }

    /// The settings of signal forwarding (declared in `Setting+Signal.swift`).
    package static let settings = SettingsCatalog([
        .signalTarget, .signalName, .temporalUrl, .temporalNamespace, .temporalApiKey, .temporalIdentity, .webhookUrl,
        .webhookSecret, .outboxPath, .outboxMaxAgeHours, .outboxRetryInitialSeconds, .outboxRetryMaxSeconds, .outboxMinFreeMib,
        .outboxAnswersPerProject, .outboxAnswersMib,
    ])

    /// The configuration `settings` resolves over the settings' defaults; the Temporal identity's
    /// default (this host's name) is computed here only.
    init(settings: SettingsReader) throws(ConfigurationError) {
        target = try settings.choice(.signalTarget, of: Target.self)
        name = settings.string(.signalName)
        temporalURL = settings.string(.temporalUrl)
        temporalNamespace = settings.string(.temporalNamespace)
        temporalAPIKey = try settings.secret(.temporalApiKey)
        identity = settings.stringIfSet(.temporalIdentity) ?? "photo-validator@" + ProcessInfo.processInfo.hostName
        webhookURL = try settings.secret(.webhookUrl)
        webhookSecret = try settings.secret(.webhookSecret)
        outboxPath = settings.string(.outboxPath)
        let hours = try settings.number(.outboxMaxAgeHours)
        guard hours > 0 else {
            throw ConfigurationError(source: Setting.outboxMaxAgeHours.key, value: String(hours), expected: "hours above 0, at most 8760 (a year)")
        }
        retry.maximumAge = .seconds(hours * 3600)
        outboxMinimumFreeBytes = Int64(try settings.integer(.outboxMinFreeMib)) << 20
        answerLimits.answersPerProject = try settings.integer(.outboxAnswersPerProject)
        answerLimits.totalBytes = try settings.integer(.outboxAnswersMib) << 20
        retry.initialDelay = try settings.seconds(.outboxRetryInitialSeconds)
        retry.maximumDelay = try settings.seconds(.outboxRetryMaxSeconds)
        if retry.initialDelay > retry.maximumDelay {
            throw ConfigurationError(source: Setting.outboxRetryInitialSeconds.key, value: "\(retry.initialDelay)", expected: "at most \(Setting.outboxRetryMaxSeconds.key)")
        }
        for url in [temporalURL, webhookURL].compactMap({ $0 }) where !["http", "https"].contains(URL(string: url)?.scheme?.lowercased() ?? "") {
            throw ConfigurationError(source: "signal URL", value: RedactedURL(url).description, expected: "an http:// or https:// URL")
        }
        if target == .webhook, webhookURL == nil || webhookSecret == nil {
            throw ConfigurationError(source: Setting.signalTarget.key, value: "webhook", expected: "\(Setting.webhookUrl.key) and \(Setting.webhookSecret.key) to be set as well")
        }
    }
}
