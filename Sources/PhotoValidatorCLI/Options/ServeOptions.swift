import ArgumentParser
import Configuration
import Foundation
import PhotoValidation
import PhotoValidatorServer
import ValidatorConfiguration

/// The daemon's flags; each overrides its `PHOTO_VALIDATOR_*` variable, which overrides the JSON
/// configuration file, which overrides the built-in default.
struct ServeOptions: ParsableArguments {
    @Option(help: "JSON configuration file (keys as in `photo-validator config`). [env: PHOTO_VALIDATOR_CONFIG_FILE]")
    var config: String?

    @Option(help: "Address to listen on. [env: PHOTO_VALIDATOR_HTTP_HOST, default: 127.0.0.1]")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one. [env: PHOTO_VALIDATOR_HTTP_PORT, default: 8080]")
    var port: Int?

    @Option(name: .customLong("unix-socket"), help: "Also listen on this Unix domain socket. [env: PHOTO_VALIDATOR_HTTP_UNIX_SOCKET]")
    var unixSocket: String?

    @Option(name: .customLong("body-limit"), help: "Largest upload, MiB. [env: PHOTO_VALIDATOR_LIMITS_BODY_MIB, default: 20]")
    var bodyLimit: Int?

    @Option(help: "Threads that decode photos. [env: PHOTO_VALIDATOR_LIMITS_WORKERS, default: one per core]")
    var workers: Int?

    @Option(help: "Validations whose body is read that may wait for a thread before 503. [env: PHOTO_VALIDATOR_LIMITS_QUEUE, default: 16 per worker]")
    var queue: Int?

    @Option(name: .customLong("upload-memory"), help: "Upload bodies held in memory at once, MiB; more wait unread. [env: PHOTO_VALIDATOR_LIMITS_UPLOAD_MEMORY_MIB, default: 64]")
    var uploadMemory: Int?

    @Option(name: .customLong("request-timeout"), help: "Seconds to receive a request body. [env: PHOTO_VALIDATOR_LIMITS_REQUEST_TIMEOUT_SECONDS, default: 30]")
    var requestTimeout: Double?

    @Option(name: .customLong("validation-timeout"), help: "Seconds for one validation, queueing included. [env: PHOTO_VALIDATOR_LIMITS_VALIDATION_TIMEOUT_SECONDS, default: 30]")
    var validationTimeout: Double?

    @Option(name: .customLong("stuck-worker-unhealthy-seconds"), help: "/healthz turns 503 once a worker is stuck this long past a deadline. [env: PHOTO_VALIDATOR_LIMITS_STUCK_WORKER_UNHEALTHY_SECONDS, default: 60]")
    var stuckWorkerUnhealthySeconds: Double?

    @Option(name: .customLong("auth-token-file"), help: "File holding the bearer token required on every route but /healthz. [env: PHOTO_VALIDATOR_AUTH_TOKEN_FILE, or the token itself in PHOTO_VALIDATOR_AUTH_TOKEN]")
    var authTokenFile: String?

    @Option(name: .customLong("log-format"), help: "text or json. [env: PHOTO_VALIDATOR_LOG_FORMAT, default: text]")
    var logFormat: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical. [env: PHOTO_VALIDATOR_LOG_LEVEL, default: info]")
    var logLevel: String?

    @Option(name: .customLong("shutdown-grace"), help: "Seconds in-flight requests get after SIGTERM. [env: PHOTO_VALIDATOR_SHUTDOWN_GRACE_SECONDS, default: 25]")
    var shutdownGrace: Double?

    @Option(name: .customLong("signal-target"), help: "Where photo_added signals go: none, temporal or webhook. [env: PHOTO_VALIDATOR_SIGNAL_TARGET, default: none]")
    var signalTarget: String?

    @Option(name: .customLong("signal-name"), help: "Signal name. [env: PHOTO_VALIDATOR_SIGNAL_NAME, default: photo_added]")
    var signalName: String?

    @Option(name: .customLong("temporal-url"), help: "Temporal HTTP API base URL. [env: PHOTO_VALIDATOR_TEMPORAL_URL, default: http://127.0.0.1:7243; the API key only in PHOTO_VALIDATOR_TEMPORAL_API_KEY]")
    var temporalURL: String?

    @Option(name: .customLong("temporal-namespace"), help: "Temporal namespace. [env: PHOTO_VALIDATOR_TEMPORAL_NAMESPACE, default: default]")
    var temporalNamespace: String?

    @Option(name: .customLong("webhook-url"), help: "URL for signed photo_added events. [env: PHOTO_VALIDATOR_WEBHOOK_URL; the secret only in PHOTO_VALIDATOR_WEBHOOK_SECRET]")
    var webhookURL: String?

    @Option(help: "Outbox SQLite file. [env: PHOTO_VALIDATOR_OUTBOX_PATH, default: $STATE_DIRECTORY/outbox.sqlite when systemd sets it, else ./photo-validator-outbox.sqlite]")
    var outbox: String?

    @OptionGroup(title: "Content check")
    var content: ContentOptions

    @OptionGroup(title: "Checks")
    var checks: CheckOptions

    /// These flags as configuration values, by key.
    var configurationValues: [String: ConfigContent] {
        var values = checks.configurationValues.merging(content.configurationValues) { $1 }
        if let host { values["http.host"] = .string(host) }
        if let port { values["http.port"] = .int(port) }
        if let unixSocket { values["http.unix_socket"] = .string(unixSocket) }
        if let bodyLimit { values["limits.body_mib"] = .int(bodyLimit) }
        if let workers { values["limits.workers"] = .int(workers) }
        if let queue { values["limits.queue"] = .int(queue) }
        if let uploadMemory { values["limits.upload_memory_mib"] = .int(uploadMemory) }
        if let requestTimeout { values["limits.request_timeout_seconds"] = .double(requestTimeout) }
        if let validationTimeout { values["limits.validation_timeout_seconds"] = .double(validationTimeout) }
        if let stuckWorkerUnhealthySeconds { values["limits.stuck_worker_unhealthy_seconds"] = .double(stuckWorkerUnhealthySeconds) }
        if let authTokenFile { values["auth.token_file"] = .string(authTokenFile) }
        if let logFormat { values["log.format"] = .string(logFormat) }
        if let logLevel { values["log.level"] = .string(logLevel) }
        if let shutdownGrace { values["shutdown.grace_seconds"] = .double(shutdownGrace) }
        if let signalTarget { values["signal.target"] = .string(signalTarget) }
        if let signalName { values["signal.name"] = .string(signalName) }
        if let temporalURL { values["temporal.url"] = .string(temporalURL) }
        if let temporalNamespace { values["temporal.namespace"] = .string(temporalNamespace) }
        if let webhookURL { values["webhook.url"] = .string(webhookURL) }
        if let outbox { values["outbox.path"] = .string(outbox) }
        return values
    }

    /// The configuration these flags, `environment` and the configuration file resolve to, and the
    /// audit of where each value came from.
    func resolve(environment: [String: String]) async throws -> (ServiceConfiguration, ConfigurationAudit) {
        return try await ServiceConfiguration.resolve(flags: configurationValues, configFile: config, environment: environment)
    }
}
