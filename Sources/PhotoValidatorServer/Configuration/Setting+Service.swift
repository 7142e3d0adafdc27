import Logging
import ValidatorConfiguration

/// The settings of the daemon, each declared once: its catalog lists it and its read names it.
extension Setting {
    /// The setting `http.host`.
    package static let httpHost = Setting("http.host", .text, default: "127.0.0.1", flag: "host", "address to listen on")

    /// The setting `http.port`.
    package static let httpPort = Setting("http.port", .integer(0...65_535), default: "8080", flag: "port",
        "TCP port to listen on, 0 for any free port")

    /// The setting `http.unix_socket`.
    package static let httpUnixSocket = Setting("http.unix_socket", .path, flag: "unix-socket",
        "also listen on this Unix domain socket path")

    /// The setting `limits.body_mib`.
    package static let limitsBodyMib = Setting("limits.body_mib", .integer(1...1024), default: "20", flag: "body-limit",
        "largest upload, MiB")

    /// The setting `limits.workers`.
    package static let limitsWorkers = Setting("limits.workers", .integer(1...256), computed: "one per core", flag: "workers",
        "threads that decode photos")

    /// The setting `limits.spare_workers`.
    package static let limitsSpareWorkers = Setting("limits.spare_workers", .integer(0...256), default: "1", flag: "spare-workers",
        "threads beyond limits.workers that, while every worker is busy, run only a photo of a caller with none running, or of another project when one project holds every worker, the cheapest by the decode cost its header declares and only one cheaper than every photo running, so that no caller, project or crowd of identities holds every thread (0: none)")

    /// The setting `limits.queue`.
    package static let limitsQueue = Setting("limits.queue", .integer(0...100_000), computed: "16 per worker", flag: "queue",
        "validations whose body is read that may wait for a thread before 503")

    /// The setting `limits.upload_memory_mib`.
    package static let limitsUploadMemoryMib = Setting("limits.upload_memory_mib", .integer(1...65_536),
        default: "64", flag: "upload-memory",
        "upload bodies held in memory at once, MiB; more wait unread, the caller holding the least served first, and a quarter is kept for callers within their share (the budget over the callers holding or waiting)")

    /// The setting `limits.admission_wait_seconds`.
    package static let limitsAdmissionWaitSeconds = Setting("limits.admission_wait_seconds", .seconds,
        default: "10", flag: "admission-wait-seconds",
        "longest wait, body unread, for room in the upload budget, or in the full worker pool for a caller with photos already waiting, before 503")

    /// The setting `limits.min_body_rate_kib`.
    package static let limitsMinBodyRateKib = Setting("limits.min_body_rate_kib", .integer(0...1_048_576),
        default: "64", flag: "min-body-rate",
        "slowest average upload rate, KiB/s, after the grace, for a body of unknown length; a body of declared length must, at its rate, finish within the request timeout; slower is 408 body_too_slow and its memory freed (0: neither rule)")

    /// The setting `limits.body_rate_grace_seconds`.
    package static let limitsBodyRateGraceSeconds = Setting("limits.body_rate_grace_seconds", .seconds,
        default: "3", flag: "body-rate-grace-seconds",
        "time an upload gets before the minimum rate applies")

    /// The setting `limits.max_connections`.
    package static let limitsMaxConnections = Setting("limits.max_connections", .integer(1...1_000_000),
        default: "512", flag: "max-connections",
        "connections open at once; more wait in the listen backlog")

    /// The setting `limits.header_timeout_seconds`.
    package static let limitsHeaderTimeoutSeconds = Setting("limits.header_timeout_seconds", .seconds, default: "20", flag: "header-timeout",
        "longest time for a request's headers to arrive, from their first byte; then the connection closes")

    /// The setting `limits.request_timeout_seconds`.
    package static let limitsRequestTimeoutSeconds = Setting("limits.request_timeout_seconds", .seconds,
        default: "30", flag: "request-timeout",
        "longest time to receive a request body")

    /// The setting `limits.retry_after_seconds`.
    package static let limitsRetryAfterSeconds = Setting("limits.retry_after_seconds", .integer(1...3600), default: "1", flag: "retry-after",
        "Retry-After sent with 503")

    /// The setting `limits.stuck_worker_unhealthy_seconds`.
    package static let limitsStuckWorkerUnhealthySeconds = Setting("limits.stuck_worker_unhealthy_seconds", .seconds,
        default: "60", flag: "stuck-worker-unhealthy-seconds",
        "/healthz turns 503 once a worker is stuck this long past a deadline")

    /// The setting `limits.idle_timeout_seconds`.
    package static let limitsIdleTimeoutSeconds = Setting("limits.idle_timeout_seconds", .integer(1...3600),
        default: "60", flag: "idle-timeout",
        "close connections idle this long, seconds")

    /// The setting `limits.client_header`.
    package static let limitsClientHeader = Setting("limits.client_header", .text, flag: "client-header",
        "request header naming the caller whose photos take one turn in fair admission and one share of upload memory (e.g. X-User-Id, set by the gateway, never by its clients); without it the caller is the auth.tokens name, else the network of the peer's IP address (its IPv4 /24 or IPv6 /64), and projects are sub-queues of their caller")

    /// The setting `duplicates.retention_hours`.
    package static let duplicatesRetentionHours = Setting("duplicates.retention_hours", .number(0.001...8760),
        default: "48", flag: "duplicates-retention-hours",
        "how long a project's accepted photo is compared with its later uploads")

    /// The setting `duplicates.photos_per_project`.
    package static let duplicatesPhotosPerProject = Setting("duplicates.photos_per_project", .integer(1...4096),
        default: "64", flag: "duplicates-photos-per-project",
        "accepted photos kept per project (its newest), and so the most an upload is compared with")

    /// The setting `duplicates.memory_mib`.
    package static let duplicatesMemoryMib = Setting("duplicates.memory_mib", .integer(1...65_536),
        default: "128", flag: "duplicates-memory",
        "MiB the kept fingerprints of every project may take together; the oldest photos go first")

    /// The setting `auth.token`.
    package static let authToken = Setting("auth.token", .text, secret: true, "bearer token required on every route but /healthz")

    /// The setting `auth.token_file`.
    package static let authTokenFile = Setting("auth.token_file", .path, flag: "auth-token-file",
        "file holding the bearer token (read once at start)")

    /// The setting `auth.tokens`.
    package static let authTokens = Setting("auth.tokens", .text, secret: true,
        "named bearer tokens, name:token entries separated by commas or new lines; each is accepted beside auth.token and its name is the caller in fair admission")

    /// The setting `auth.tokens_file`.
    package static let authTokensFile = Setting("auth.tokens_file", .path, flag: "auth-tokens-file",
        "file holding the named bearer tokens, one name:token a line (read once at start)")

    /// The setting `log.format`.
    package static let logFormat = Setting("log.format", .choice(ServiceConfiguration.LogFormat.allCases.map(\.rawValue)),
        default: "text", flag: "log-format",
        "log line format")

    /// The setting `log.level`.
    package static let logLevel = Setting("log.level", .choice(Logger.Level.allCases.map(\.rawValue)), default: "info", flag: "log-level",
        "lowest level logged")

    /// The setting `shutdown.grace_seconds`.
    package static let shutdownGraceSeconds = Setting("shutdown.grace_seconds", .seconds, default: "25", flag: "shutdown-grace",
        "time in-flight requests get after SIGTERM")
}
