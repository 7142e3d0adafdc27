import Logging
import ValidatorConfiguration

extension Setting {
    /// `http.host`: address to listen on.
    public static let httpHost = Setting("http.host", .text, default: "127.0.0.1", flag: "host", "address to listen on")

    /// `http.port`: TCP port to listen on, 0 for any free port.
    public static let httpPort = Setting("http.port", .integer(0...65_535), default: "8080", flag: "port", "TCP port to listen on, 0 for any free port")

    /// `http.unix_socket`: also listen on this Unix domain socket path.
    public static let httpUnixSocket = Setting("http.unix_socket", .path, flag: "unix-socket", "also listen on this Unix domain socket path")

    /// `limits.body_mib`: largest upload, MiB.
    public static let limitsBodyMib = Setting("limits.body_mib", .integer(1...1024), default: "20", flag: "body-limit", "largest upload, MiB")

    /// `limits.workers`: threads that decode photos.
    public static let limitsWorkers = Setting("limits.workers", .integer(1...256), computed: "one per core", flag: "workers", "threads that decode photos")

    /// `limits.queue`: validations whose body is read that may wait for a thread before 503.
    public static let limitsQueue = Setting("limits.queue", .integer(0...100_000), computed: "16 per worker", flag: "queue", "validations whose body is read that may wait for a thread before 503")

    /// `limits.upload_memory_mib`: upload bodies held in memory at once, MiB; more wait unread.
    public static let limitsUploadMemoryMib = Setting("limits.upload_memory_mib", .integer(1...65_536), default: "64", flag: "upload-memory", "upload bodies held in memory at once, MiB; more wait unread")

    /// `limits.admission_wait_seconds`: longest wait, body unread, for room in the upload budget before 503.
    public static let limitsAdmissionWaitSeconds = Setting("limits.admission_wait_seconds", .seconds, default: "10", flag: "admission-wait-seconds", "longest wait, body unread, for room in the upload budget before 503")

    /// `limits.min_body_rate_kib`: slowest average upload rate, KiB/s, after the grace, for a body that would not finish within the request timeout at its rate; slower is 408.
    public static let limitsMinBodyRateKib = Setting("limits.min_body_rate_kib", .integer(0...1_048_576), default: "16", flag: "min-body-rate", "slowest average upload rate, KiB/s, after the grace, for a body that would not finish within the request timeout at its rate; slower is 408")

    /// `limits.body_rate_grace_seconds`: time an upload gets before the minimum rate applies.
    public static let limitsBodyRateGraceSeconds = Setting("limits.body_rate_grace_seconds", .seconds, default: "5", flag: "body-rate-grace-seconds", "time an upload gets before the minimum rate applies")

    /// `limits.max_connections`: connections open at once; more wait in the listen backlog.
    public static let limitsMaxConnections = Setting("limits.max_connections", .integer(1...1_000_000), default: "512", flag: "max-connections", "connections open at once; more wait in the listen backlog")

    /// `limits.header_timeout_seconds`: longest time for a request's headers to arrive, from their first byte; then the connection closes.
    public static let limitsHeaderTimeoutSeconds = Setting("limits.header_timeout_seconds", .seconds, default: "20", flag: "header-timeout", "longest time for a request's headers to arrive, from their first byte; then the connection closes")

    /// `limits.request_timeout_seconds`: longest time to receive a request body.
    public static let limitsRequestTimeoutSeconds = Setting("limits.request_timeout_seconds", .seconds, default: "30", flag: "request-timeout", "longest time to receive a request body")

    /// `limits.validation_timeout_seconds`: longest time for one validation, queueing included.
    public static let limitsValidationTimeoutSeconds = Setting("limits.validation_timeout_seconds", .seconds, default: "30", flag: "validation-timeout", "longest time for one validation, queueing included")

    /// `limits.retry_after_seconds`: Retry-After sent with 503.
    public static let limitsRetryAfterSeconds = Setting("limits.retry_after_seconds", .integer(1...3600), default: "1", flag: "retry-after", "Retry-After sent with 503")

    /// `limits.stuck_worker_unhealthy_seconds`: /healthz turns 503 once a worker is stuck this long past a deadline.
    public static let limitsStuckWorkerUnhealthySeconds = Setting("limits.stuck_worker_unhealthy_seconds", .seconds, default: "60", flag: "stuck-worker-unhealthy-seconds", "/healthz turns 503 once a worker is stuck this long past a deadline")

    /// `limits.idle_timeout_seconds`: close connections idle this long, seconds.
    public static let limitsIdleTimeoutSeconds = Setting("limits.idle_timeout_seconds", .integer(1...3600), default: "60", flag: "idle-timeout", "close connections idle this long, seconds")

    /// `limits.client_header`: request header naming the client whose photos queue together (e.g. X-User-Id set by the gateway); default: the project, else the peer address.
    public static let limitsClientHeader = Setting("limits.client_header", .text, flag: "client-header", "request header naming the client whose photos queue together (e.g. X-User-Id set by the gateway); default: the project, else the peer address")

    /// `duplicates.retention_hours`: how long a project's accepted photo is compared with its later uploads.
    public static let duplicatesRetentionHours = Setting("duplicates.retention_hours", .number(0.001...8760), default: "48", flag: "duplicates-retention-hours", "how long a project's accepted photo is compared with its later uploads")

    /// `auth.token`: bearer token required on every route but /healthz.
    public static let authToken = Setting("auth.token", .text, secret: true, "bearer token required on every route but /healthz")

    /// `auth.token_file`: file holding the bearer token (read once at start).
    public static let authTokenFile = Setting("auth.token_file", .path, flag: "auth-token-file", "file holding the bearer token (read once at start)")

    /// `log.format`: log line format.
    public static let logFormat = Setting("log.format", .choice(ServiceConfiguration.LogFormat.allCases.map(\.rawValue)), default: "text", flag: "log-format", "log line format")

    /// `log.level`: lowest level logged.
    public static let logLevel = Setting("log.level", .choice(Logger.Level.allCases.map(\.rawValue)), default: "info", flag: "log-level", "lowest level logged")

    /// `shutdown.grace_seconds`: time in-flight requests get after SIGTERM.
    public static let shutdownGraceSeconds = Setting("shutdown.grace_seconds", .seconds, default: "25", flag: "shutdown-grace", "time in-flight requests get after SIGTERM")
}
