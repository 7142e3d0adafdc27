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
    /// The bearer token every route but `/healthz` requires, when set.
    public var authToken: String?
    /// Log line format.
    public var logFormat: LogFormat = .text
    /// Lowest level logged.
    public var logLevel: Logger.Level = .info
    /// Longest time in-flight requests get to finish after SIGTERM.
    public var shutdownGracePeriod: Duration = .seconds(25)
    /// The thresholds and limits of the checks.
    public var validation = ValidationSettings()
    /// Where `photo_added` signals go.
    public var signal = SignalConfiguration()
    /// The content check through a vision model.
    public var content = ContentCheckConfiguration()

    /// The built-in defaults.
    public init() {}

    /// The server's configuration keys and what each sets (the check keys are listed by
    /// `ValidationSettings.configurationKeys`).
    public static let configurationKeys: [(key: String, help: String)] = [
        ("http.host", "address to listen on (default 127.0.0.1)"),
        ("http.port", "TCP port to listen on, 0 for any free port (default 8080)"),
        ("http.unix_socket", "also listen on this Unix domain socket path"),
        ("limits.body_mib", "largest upload, MiB (default 20)"),
        ("limits.workers", "threads that decode photos (default: one per core)"),
        ("limits.queue", "validations whose body is read that may wait for a thread before 503 (default: 16 per worker)"),
        ("limits.upload_memory_mib", "upload bodies held in memory at once, MiB; more wait unread (default 64)"),
        ("limits.admission_wait_seconds", "longest wait, body unread, for room in the upload budget before 503 (default 10)"),
        ("limits.min_body_rate_kib", "slowest average upload rate, KiB/s, after the grace, for a body that would not finish within the request timeout at its rate; slower is 408 (default 16)"),
        ("limits.body_rate_grace_seconds", "time an upload gets before the minimum rate applies (default 5)"),
        ("limits.max_connections", "connections open at once; more wait in the listen backlog (default 512)"),
        ("limits.header_timeout_seconds", "longest time for a request's headers to arrive, from their first byte; then the connection closes (default 20)"),
        ("limits.request_timeout_seconds", "longest time to receive a request body (default 30)"),
        ("limits.validation_timeout_seconds", "longest time for one validation, queueing included (default 30)"),
        ("limits.retry_after_seconds", "Retry-After sent with 503 (default 1)"),
        ("limits.stuck_worker_unhealthy_seconds", "/healthz turns 503 once a worker is stuck this long past a deadline (default 60)"),
        ("limits.idle_timeout_seconds", "close connections idle this long (default 60)"),
        ("auth.token", "bearer token required on every route but /healthz (secret)"),
        ("auth.token_file", "file holding the bearer token (read once at start)"),
        ("log.format", "text or json (default text)"),
        ("log.level", "trace, debug, info, notice, warning, error or critical (default info)"),
        ("shutdown.grace_seconds", "time in-flight requests get after SIGTERM (default 25)"),
    ]

    /// The configuration `reader` resolves over the defaults; `environment` is the one resolution
    /// was given (for `CREDENTIALS_DIRECTORY`), never read from the process.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is unusable.
    public init(reader: ConfigReader, environment: [String: String]) throws(ConfigurationError) {
        self.init()
        let settings = SettingsReader(reader: reader)
        host = settings.string("http.host") ?? host
        port = try settings.integer("http.port", in: 0...65_535) ?? port
        unixSocket = settings.string("http.unix_socket")
        bodyLimit = (try settings.integer("limits.body_mib", in: 1...1024)).map { $0 << 20 } ?? bodyLimit
        workers = try settings.integer("limits.workers", in: 1...256) ?? workers
        queueLimit = try settings.integer("limits.queue", in: 0...100_000) ?? 16 * workers
        uploadMemoryBytes = (try settings.integer("limits.upload_memory_mib", in: 1...65_536)).map { $0 << 20 } ?? uploadMemoryBytes
        admissionWait = try settings.seconds("limits.admission_wait_seconds") ?? admissionWait
        minimumBodyRate = (try settings.integer("limits.min_body_rate_kib", in: 0...1_048_576)).map { $0 << 10 } ?? minimumBodyRate
        bodyRateGrace = try settings.seconds("limits.body_rate_grace_seconds") ?? bodyRateGrace
        maximumConnections = try settings.integer("limits.max_connections", in: 1...1_000_000) ?? maximumConnections
        headerTimeout = try settings.seconds("limits.header_timeout_seconds") ?? headerTimeout
        requestTimeout = try settings.seconds("limits.request_timeout_seconds") ?? requestTimeout
        validationTimeout = try settings.seconds("limits.validation_timeout_seconds") ?? validationTimeout
        retryAfterSeconds = try settings.integer("limits.retry_after_seconds", in: 1...3600) ?? retryAfterSeconds
        stuckWorkerUnhealthyAfter = try settings.seconds("limits.stuck_worker_unhealthy_seconds") ?? stuckWorkerUnhealthyAfter
        idleTimeoutSeconds = try settings.integer("limits.idle_timeout_seconds", in: 1...3600) ?? idleTimeoutSeconds
        authToken = settings.string("auth.token", isSecret: true)
        if authToken == nil, let path = settings.string("auth.token_file") {
            do {
                let token = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                guard !token.isEmpty else {
                    throw ConfigurationError(source: "auth.token_file", value: path, expected: "a file holding a non-empty token")
                }
                authToken = token
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError(source: "auth.token_file", value: path, expected: "a readable file (\(error.localizedDescription))")
            }
        }
        logFormat = try settings.choice("log.format", of: LogFormat.self) ?? logFormat
        if let level = settings.string("log.level") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigurationError(source: "log.level", value: level, expected: "one of " + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
            }
            logLevel = parsed
        }
        shutdownGracePeriod = try settings.seconds("shutdown.grace_seconds") ?? shutdownGracePeriod
        validation = try ValidationSettings(reader: reader)
        signal = try SignalConfiguration(settings: settings)
        content = try ContentCheckConfiguration(reader: reader, environment: environment)
    }
}
