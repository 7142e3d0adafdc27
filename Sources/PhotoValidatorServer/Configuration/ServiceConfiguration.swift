import Configuration
import ContentCheck
import Foundation
import Logging
import PhotoValidation
import SharedStore
import ValidatorConfiguration

/// Everything `serve` needs, resolved once from flags, environment, file and the defaults its
/// settings declare (`Setting+Service.swift`); immutable.
package struct ServiceConfiguration: Sendable {
    /// How log lines are written.
    package enum LogFormat: String, Sendable, CaseIterable {
        /// `swift-log`'s plain text lines.
        case text
        /// One JSON object per line.
        case json
    }

    /// The address to listen on.
    package var host: String
    /// The TCP port; 0 picks a free one.
    package var port: Int
    /// An optional Unix domain socket to listen on as well.
    package var unixSocket: String?
    /// The largest request body accepted, in bytes.
    package var bodyLimit: Int
    /// Threads that decode and measure photos.
    package var workers: Int
    /// Threads beyond `workers` that, while every worker is busy, run only a photo of a caller with
    /// none running, or of another project when one project holds them all
    /// (`limits.spare_workers`): decodes are not pre-empted, so these keep one caller's or
    /// project's long decodes from holding up another's short one.
    package var spareWorkers: Int
    /// Validations that may wait for a worker; more are answered 503. Bodies waiting here are
    /// already read and counted in the upload budget, so the queue is deep: a burst waits rather
    /// than being read, refused and re-sent (16 per worker unless set).
    package var queueLimit: Int
    /// Bytes of upload bodies held in memory at once (declared lengths; the body limit for an
    /// upload without `Content-Length`).
    package var uploadMemoryBytes: Int
    /// Longest time a request waits, unread, for room in the upload budget before a 503.
    package var admissionWait: Duration
    /// Slowest average body rate accepted once `bodyRateGrace` has passed, in bytes per second.
    package var minimumBodyRate: Int
    /// Time a body may take to reach `minimumBodyRate`.
    package var bodyRateGrace: Duration
    /// Connections open at once; further ones wait in the listen backlog.
    package var maximumConnections: Int
    /// Longest time a request head may take to arrive, from its first byte.
    package var headerTimeout: Duration
    /// Longest time to receive a request body.
    package var requestTimeout: Duration
    /// Longest time a validation may take, queueing included.
    package var validationTimeout: Duration
    /// How long a worker may stay stuck past a job's deadline before `/healthz` reports unhealthy.
    package var stuckWorkerUnhealthyAfter: Duration
    /// Seconds after which a connection with no request in progress is closed.
    package var idleTimeoutSeconds: Int
    /// Seconds clients are told to wait in `Retry-After` when the daemon is saturated.
    package var retryAfterSeconds: Int
    /// The request header that names the caller photos are queued per (`limits.client_header`);
    /// without it (or when a request lacks it) the caller is the name of its `authTokens` entry,
    /// else the peer's IP address. Projects are sub-queues within their caller.
    package var clientHeader: String?
    /// The bearer token every route but `/healthz` requires, when set; it names no caller.
    package var authToken: String?
    /// Named bearer tokens (`auth.tokens`), accepted beside `authToken`; a request with one is that
    /// caller's in fair admission.
    package var callerTokens: [CallerToken]
    /// Log line format.
    package var logFormat: LogFormat
    /// Lowest level logged.
    package var logLevel: Logger.Level
    /// Longest time in-flight requests get to finish after SIGTERM.
    package var shutdownGracePeriod: Duration
    /// How long the duplicate check remembers a project's accepted photo (the workflow's
    /// abandonment timeout).
    package var duplicateRetention: Duration
    /// Accepted photos kept per project, its newest (`duplicates.photos_per_project`).
    package var duplicatePhotosPerProject: Int
    /// Bytes the kept fingerprints of every project may take together (`duplicates.memory_mib`).
    package var duplicateMemoryBytes: Int
    /// The PostgreSQL database replicas share (`store.url`), or nil for each replica's own SQLite.
    package var store: SharedStoreSettings?
    /// The thresholds and limits of the checks.
    package var validation: ValidationSettings
    /// Where `photo_added` signals go.
    package var signal: SignalConfiguration
    /// The content check through a vision model.
    package var content: ContentCheckConfiguration
    /// The scores cache's key file when one is set (`scores_cache.key_file`): read by `validate`
    /// and `tune`, never by `serve`, and resolved here so that `config` shows where it comes from.
    package var scoresCacheKeyFile: String?

    /// The settings' defaults.
    package init() {
        // Only a default that is not a value its setting accepts could throw; a test resolves them.
        try! self.init(reader: ConfigurationSources.nothingSet)
    }

    /// The server's settings (the checks' are `ValidationSettings.settings`), declared in
    /// `Setting+Service.swift`.
    package static let settings = SettingsCatalog([
        .httpHost, .httpPort, .httpUnixSocket, .limitsBodyMib, .limitsWorkers, .limitsSpareWorkers, .limitsQueue, .limitsUploadMemoryMib,
        .limitsAdmissionWaitSeconds, .limitsMinBodyRateKib, .limitsBodyRateGraceSeconds, .limitsMaxConnections,
        .limitsHeaderTimeoutSeconds, .limitsRequestTimeoutSeconds, .limitsValidationTimeoutSeconds, .limitsRetryAfterSeconds,
        .limitsStuckWorkerUnhealthySeconds, .limitsIdleTimeoutSeconds, .limitsClientHeader, .duplicatesRetentionHours,
        .duplicatesPhotosPerProject, .duplicatesMemoryMib,
        .authToken, .authTokenFile, .authTokens, .authTokensFile, .logFormat, .logLevel, .shutdownGraceSeconds,
        .storeUrl, .storePassword, .storePasswordFile, .storePoolSize, .storeTls, .storeTlsCaFile, .storeTimeoutSeconds,
    ])

    /// Every setting of `serve`: the server's, the checks', signal forwarding's and the content
    /// check's, and the batch commands' own, so that `config` lists them all.
    package static let allSettings = settings + ValidationSettings.settings + SignalConfiguration.settings + ContentCheckConfiguration.settings
        + BatchSettings.settings

    /// The configuration `reader` resolves over the settings' defaults; the two that depend on the
    /// machine (threads, one per core; queue, 16 per worker) are computed here only.
    ///
    /// - Throws: `ConfigurationError` naming the key whose value is unusable.
    package init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingsReader(reader: reader, catalog: Self.allSettings)
        host = settings.string(.httpHost)
        port = try settings.integer(.httpPort)
        unixSocket = settings.stringIfSet(.httpUnixSocket)
        bodyLimit = try settings.integer(.limitsBodyMib) << 20
        workers = try settings.integerIfSet(.limitsWorkers) ?? AvailableCores.count
        spareWorkers = try settings.integer(.limitsSpareWorkers)
        queueLimit = try settings.integerIfSet(.limitsQueue) ?? 16 * workers
        uploadMemoryBytes = try settings.integer(.limitsUploadMemoryMib) << 20
        admissionWait = try settings.seconds(.limitsAdmissionWaitSeconds)
        minimumBodyRate = try settings.integer(.limitsMinBodyRateKib) << 10
        bodyRateGrace = try settings.seconds(.limitsBodyRateGraceSeconds)
        maximumConnections = try settings.integer(.limitsMaxConnections)
        headerTimeout = try settings.seconds(.limitsHeaderTimeoutSeconds)
        requestTimeout = try settings.seconds(.limitsRequestTimeoutSeconds)
        validationTimeout = try settings.seconds(.limitsValidationTimeoutSeconds)
        retryAfterSeconds = try settings.integer(.limitsRetryAfterSeconds)
        stuckWorkerUnhealthyAfter = try settings.seconds(.limitsStuckWorkerUnhealthySeconds)
        idleTimeoutSeconds = try settings.integer(.limitsIdleTimeoutSeconds)
        clientHeader = settings.stringIfSet(.limitsClientHeader)
        duplicateRetention = .seconds(try settings.number(.duplicatesRetentionHours) * 3600)
        duplicatePhotosPerProject = try settings.integer(.duplicatesPhotosPerProject)
        duplicateMemoryBytes = try settings.integer(.duplicatesMemoryMib) << 20
        authToken = try settings.secret(.authToken)
        if let text = try settings.secret(.authTokens) {
            callerTokens = try CallerToken.list(text, source: Setting.authTokens.key)
        } else {
            callerTokens = []
        }
        if let authToken, let named = callerTokens.first(where: { $0.token == authToken }) {
            throw ConfigurationError(source: Setting.authTokens.key, value: "\(named.name):<redacted>", expected: "a token other than auth.token")
        }
        logFormat = try settings.choice(.logFormat, of: LogFormat.self)
        logLevel = try settings.choice(.logLevel, of: Logger.Level.self)
        shutdownGracePeriod = try settings.seconds(.shutdownGraceSeconds)
        store = try Self.store(settings)
        validation = try ValidationSettings(reader: reader)
        signal = try SignalConfiguration(settings: settings)
        content = try ContentCheckConfiguration(reader: reader)
        scoresCacheKeyFile = settings.stringIfSet(.scoresCacheKeyFile)
    }
}
