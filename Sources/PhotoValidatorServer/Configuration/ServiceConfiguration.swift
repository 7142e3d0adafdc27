import Configuration
import ContentCheck
import Foundation
import Logging
import PhotoValidation
import ValidatorConfiguration

/// Everything `serve` needs, resolved once from flags, environment, file and defaults; immutable.
public struct ServiceConfiguration: Sendable {
    /// How log lines are written.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// `swift-log`'s plain text lines.
        case text
        /// One JSON object per line.
        case json
    }

    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port = 8080
    /// An optional Unix domain socket to listen on as well.
    public var unixSocket: String?
    /// The largest request body accepted, in bytes.
    public var bodyLimit = 20 << 20
    /// Threads that decode and measure photos.
    public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Validations that may wait for a worker; more are answered 503. Bodies waiting here are
    /// already read and counted in the upload budget, so the queue is deep: a burst waits rather
    /// than being read, refused and re-sent.
    public var queueLimit = 16 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Bytes of upload bodies held in memory at once (declared lengths; the body limit for an
    /// upload without `Content-Length`).
    public var uploadMemoryBytes = 64 << 20
    /// Longest time a request waits, unread, for room in the upload budget before a 503.
    public var admissionWait: Duration = .seconds(10)
    /// Slowest average body rate accepted once `bodyRateGrace` has passed, in bytes per second.
    public var minimumBodyRate = 16 << 10
    /// Time a body may take to reach `minimumBodyRate`.
    public var bodyRateGrace: Duration = .seconds(5)
    /// Connections open at once; further ones wait in the listen backlog.
    public var maximumConnections = 512
    /// Longest time a request head may take to arrive, from its first byte.
    public var headerTimeout: Duration = .seconds(20)
    /// Longest time to receive a request body.
    public var requestTimeout: Duration = .seconds(30)
    /// Longest time a validation may take, queueing included.
    public var validationTimeout: Duration = .seconds(30)
    /// How long a worker may stay stuck past a job's deadline before `/healthz` reports unhealthy.
    public var stuckWorkerUnhealthyAfter: Duration = .seconds(60)
    /// Seconds after which a connection with no request in progress is closed.
    public var idleTimeoutSeconds = 60
    /// Seconds clients are told to wait in `Retry-After` when the daemon is saturated.
    public var retryAfterSeconds = 1
    /// The request header that names the client photos are queued per (`limits.client_header`);
    /// without it (or when a request lacks it) the project, else the peer address, is the client.
    public var clientHeader: String?
    /// The bearer token every route but `/healthz` requires, when set.
    public var authToken: String?
    /// Log line format.
    public var logFormat: LogFormat = .text
    /// Lowest level logged.
    public var logLevel: Logger.Level = .info
    /// Longest time in-flight requests get to finish after SIGTERM.
    public var shutdownGracePeriod: Duration = .seconds(25)
    /// How long the duplicate check remembers a project's accepted photo (the workflow's
    /// abandonment timeout).
    public var duplicateRetention: Duration = .seconds(48 * 3600)
    /// The thresholds and limits of the checks.
    public var validation = ValidationSettings()
    /// Where `photo_added` signals go.
    public var signal = SignalConfiguration()
    /// The content check through a vision model.
    public var content = ContentCheckConfiguration()

    /// The built-in defaults.
    public init() {}

    /// The server's settings (the checks' are `ValidationSettings.settings`).
    public static let settings = SettingsCatalog([
        Setting("http.host", .text, default: "127.0.0.1", flag: "host", "address to listen on"),
        Setting("http.port", .integer(0...65_535), default: "8080", flag: "port", "TCP port to listen on, 0 for any free port"),
        Setting("http.unix_socket", .path, flag: "unix-socket", "also listen on this Unix domain socket path"),
        Setting("limits.body_mib", .integer(1...1024), default: "20", flag: "body-limit", "largest upload, MiB"),
        Setting("limits.workers", .integer(1...256), default: "one per core", flag: "workers", "threads that decode photos"),
        Setting("limits.queue", .integer(0...100_000), default: "16 per worker", flag: "queue",
                "validations whose body is read that may wait for a thread before 503"),
        Setting("limits.upload_memory_mib", .integer(1...65_536), default: "64", flag: "upload-memory",
                "upload bodies held in memory at once, MiB; more wait unread"),
        Setting("limits.admission_wait_seconds", .seconds, default: "10", flag: "admission-wait-seconds",
                "longest wait, body unread, for room in the upload budget before 503"),
        Setting("limits.min_body_rate_kib", .integer(0...1_048_576), default: "16", flag: "min-body-rate",
                "slowest average upload rate, KiB/s, after the grace, for a body that would not finish within the request timeout at its rate; slower is 408"),
        Setting("limits.body_rate_grace_seconds", .seconds, default: "5", flag: "body-rate-grace-seconds", "time an upload gets before the minimum rate applies"),
        Setting("limits.max_connections", .integer(1...1_000_000), default: "512", flag: "max-connections",
                "connections open at once; more wait in the listen backlog"),
        Setting("limits.header_timeout_seconds", .seconds, default: "20", flag: "header-timeout",
                "longest time for a request's headers to arrive, from their first byte; then the connection closes"),
        Setting("limits.request_timeout_seconds", .seconds, default: "30", flag: "request-timeout", "longest time to receive a request body"),
        Setting("limits.validation_timeout_seconds", .seconds, default: "30", flag: "validation-timeout", "longest time for one validation, queueing included"),
        Setting("limits.retry_after_seconds", .integer(1...3600), default: "1", flag: "retry-after", "Retry-After sent with 503"),
        Setting("limits.stuck_worker_unhealthy_seconds", .seconds, default: "60", flag: "stuck-worker-unhealthy-seconds",
                "/healthz turns 503 once a worker is stuck this long past a deadline"),
        Setting("limits.idle_timeout_seconds", .integer(1...3600), default: "60", flag: "idle-timeout", "close connections idle this long, seconds"),
        Setting("limits.client_header", .text, flag: "client-header",
                "request header naming the client whose photos queue together (e.g. X-User-Id set by the gateway); default: the project, else the peer address"),
        Setting("duplicates.retention_hours", .number(0.001...8760), default: "48", flag: "duplicates-retention-hours",
                "how long a project's accepted photo is compared with its later uploads"),
        Setting("auth.token", .text, secret: true, "bearer token required on every route but /healthz"),
        Setting("auth.token_file", .path, flag: "auth-token-file", "file holding the bearer token (read once at start)"),
        Setting("log.format", .choice(LogFormat.allCases.map(\.rawValue)), default: "text", flag: "log-format", "log line format"),
        Setting("log.level", .choice(Logger.Level.allCases.map(\.rawValue)), default: "info", flag: "log-level", "lowest level logged"),
        Setting("shutdown.grace_seconds", .seconds, default: "25", flag: "shutdown-grace", "time in-flight requests get after SIGTERM"),
    ])

    /// Every setting of `serve`: the server's, the checks', signal forwarding's and the content check's.
    public static let allSettings = settings + ValidationSettings.settings + SignalConfiguration.settings + ContentCheckConfiguration.settings

    /// The configuration `reader` resolves over the defaults.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is unusable.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader, catalog: Self.allSettings)
        host = settings.string("http.host") ?? host
        port = try settings.integer("http.port") ?? port
        unixSocket = settings.string("http.unix_socket")
        bodyLimit = (try settings.integer("limits.body_mib")).map { $0 << 20 } ?? bodyLimit
        workers = try settings.integer("limits.workers") ?? workers
        queueLimit = try settings.integer("limits.queue") ?? 16 * workers
        uploadMemoryBytes = (try settings.integer("limits.upload_memory_mib")).map { $0 << 20 } ?? uploadMemoryBytes
        admissionWait = try settings.seconds("limits.admission_wait_seconds") ?? admissionWait
        minimumBodyRate = (try settings.integer("limits.min_body_rate_kib")).map { $0 << 10 } ?? minimumBodyRate
        bodyRateGrace = try settings.seconds("limits.body_rate_grace_seconds") ?? bodyRateGrace
        maximumConnections = try settings.integer("limits.max_connections") ?? maximumConnections
        headerTimeout = try settings.seconds("limits.header_timeout_seconds") ?? headerTimeout
        requestTimeout = try settings.seconds("limits.request_timeout_seconds") ?? requestTimeout
        validationTimeout = try settings.seconds("limits.validation_timeout_seconds") ?? validationTimeout
        retryAfterSeconds = try settings.integer("limits.retry_after_seconds") ?? retryAfterSeconds
        stuckWorkerUnhealthyAfter = try settings.seconds("limits.stuck_worker_unhealthy_seconds") ?? stuckWorkerUnhealthyAfter
        idleTimeoutSeconds = try settings.integer("limits.idle_timeout_seconds") ?? idleTimeoutSeconds
        clientHeader = settings.string("limits.client_header").flatMap { $0.isEmpty ? nil : $0 }
        duplicateRetention = (try settings.number("duplicates.retention_hours")).map { .seconds($0 * 3600) } ?? duplicateRetention
        authToken = try settings.secret("auth.token")
        logFormat = try settings.choice("log.format", of: LogFormat.self) ?? logFormat
        logLevel = try settings.choice("log.level", of: Logger.Level.self) ?? logLevel
        shutdownGracePeriod = try settings.seconds("shutdown.grace_seconds") ?? shutdownGracePeriod
        validation = try ValidationSettings(reader: reader)
        signal = try SignalConfiguration(settings: settings)
        content = try ContentCheckConfiguration(reader: reader)
    }
}
