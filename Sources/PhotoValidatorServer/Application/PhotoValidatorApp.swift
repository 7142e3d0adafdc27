import Admission
import ContentCheck
import Hummingbird
import HummingbirdCore
import Logging
import LumaAnalysis
import NIOCore
import PhotoFormat
import PhotoValidation
import ServiceLifecycle
import SharedStore
import SignalForwarding
import ValidationThreads

/// The daemon's parts, built from a resolved configuration by `buildApplication(configuration:validator:logger:)`
/// for `serve` and for the tests alike; its long-lived resources start when it runs.
package struct PhotoValidatorApp: Sendable {
    /// The configuration the daemon was built from.
    package let configuration: ServiceConfiguration
    /// The logger every part logs to.
    package let logger: Logger
    /// Validation on the worker pool.
    package let service: PhotoValidationService
    /// Whether shutdown has begun.
    package let state: ServiceState
    /// Signal forwarding, or nil when it is off.
    package let forwarder: SignalForwarder?
    /// The HTTP client of the content check, or nil when it is off.
    package let contentClient: ContentClientService?
    /// The PostgreSQL database replicas share (`store.url`), or nil.
    package let sharedStore: SharedStore?
    /// The routes served.
    package let routes: RouteTable
    private let responder: RouterResponder<ValidationRequestContext>

    /// Builds the daemon around `validator` (decode workers, or with `decode_isolation = none`
    /// libvips in this process, made by the caller): metrics, the outbox, the content check, the
    /// worker pool and the router. Nothing else is started: the pool's threads start in
    /// `ThreadPoolService.run`, so a failure here (the outbox cannot be opened) leaves nothing running.
    ///
    /// - Throws: `OutboxError` when the outbox cannot be opened, `SharedStoreError` when
    ///   `store.url` names no usable database.
    package init(configuration: ServiceConfiguration, validator: PhotoValidator, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        let pool = ValidationThreadPool(
            threadCount: configuration.workers, spareThreads: configuration.spareWorkers, queueLimit: configuration.queueLimit, defaultTimeout: configuration.validationTimeout,
            threadExit: validator.releaseThreadResources
        )
        if let warning = validator.isolation?.sandboxWarning {
            logger.warning("\(warning)")
        }
        if let warning = Self.fairnessWarning(configuration) {
            logger.warning("\(warning)")
        }
        let uploads = FairMemoryGate(capacity: configuration.uploadMemoryBytes)
        let metrics = ServiceMetrics(pool: pool, budget: validator.memoryBudget, uploads: uploads, isolation: validator.isolation)
        let state = ServiceState()
        // Connected and migrated when its service runs; a bad URL was refused with the settings.
        let sharedStore = try configuration.store.map { try SharedStore(settings: $0, logger: logger) }
        let forwarder = try SignalForwarder.make(configuration: configuration.signal, metrics: metrics, logger: logger, sharedStore: sharedStore)
        self.sharedStore = sharedStore
        var service = PhotoValidationService(validator: validator, pool: pool, metrics: metrics, configuration: configuration, uploads: uploads)
        if configuration.validation.duplicateCheck {
            // In the outbox's database when there is one, so a restart forgets nothing; else in memory.
            let limits = ProjectMemory<PhotoFingerprint>.Limits(
                retention: configuration.duplicateRetention.seconds, photosPerProject: configuration.duplicatePhotosPerProject,
                totalBytes: configuration.duplicateMemoryBytes
            )
            let onEvict: @Sendable ([EvictedPhoto]) -> Void = { evicted in
                metrics.recordEvictions(evicted)
                // Age is the retention doing its work; only the limits' evictions are worth a line.
                let early = evicted.filter { $0.reason != .age }
                if let first = early.first {
                    logger.notice("the duplicate check forgot \(early.count) accepted photo(s) before their retention ended (\(first.reason.rawValue), first: project \(first.projectID) photo \(first.photoID)): a later copy of them is not caught; raise duplicates.memory_mib or duplicates.photos_per_project if this is frequent")
                }
            }
            // With the shared store, the project memory is the one replicas share.
            let store = try forwarder?.outbox?.fingerprintStore(limits: limits, onEvict: onEvict)
                ?? PhotoFingerprintStore(limits: limits, onEvict: onEvict)
            let shared = sharedStore.map { DuplicateCheck.sharedMemory($0, limits: limits, logger: logger, onEvict: onEvict) }
            service.duplicates = DuplicateCheck(store: store, rule: configuration.validation.duplicateRule, shared: shared)
        }
        // The content check's HTTP client is made on its first call and shut down by its service.
        if configuration.content.policy != .off {
            let previews = PreviewBounds()
            let client = ContentClientService(logger: logger)
            let policy = configuration.content.policy
            service.content = ContentClassifier.make(configuration: configuration.content, previews: previews, client: client.client) { event in
                metrics.recordContent(event)
                // Once per change, not per photo: a refusal will not heal by retrying.
                if case .refusing(let message) = event {
                    if let message {
                        logger.error("the content provider refuses every request as configured; photos take the \(policy.rawValue) policy until it answers again. Check content.model, the API key and the account's limits: \(message)")
                    } else {
                        logger.notice("the content provider answers again")
                    }
                }
            }
            self.contentClient = client
        } else {
            self.contentClient = nil
        }
        self.service = service
        self.state = state
        self.forwarder = forwarder

        let router = Router(context: ValidationRequestContext.self)
        let routeTable = RouteTableBox()
        router.add(middleware: ObservabilityMiddleware(
            logger: logger, metrics: metrics, routes: { routeTable.table }, bodyLimit: configuration.bodyLimit
        ))
        if configuration.authToken != nil || !configuration.callerTokens.isEmpty {
            router.add(middleware: BearerAuthMiddleware(token: configuration.authToken, callerTokens: configuration.callerTokens))
        }
        router.add(middleware: FairAdmissionMiddleware(service: service))
        ValidationController(service: service, forwarder: forwarder).addRoutes(to: router)
        OperationsController(service: service, state: state, forwarder: forwarder, sharedStore: sharedStore).addRoutes(to: router)
        OutboxController(forwarder: forwarder, retryAfterSeconds: configuration.retryAfterSeconds).addRoutes(to: router)
        let routes = RouteTable(router)
        routeTable.table = routes
        self.routes = routes
        self.responder = router.buildResponder()
    }

    /// The HTTP application on `address` (the configured TCP address by default), running the
    /// worker pool, the content check's HTTP client and, when configured, the Unix-socket listener
    /// as its services.
    package func makeApplication(address: BindAddress? = nil) -> some ApplicationProtocol {
        // Shutdown runs in reverse: listeners drain first, then delivery stops, then the workers.
        var services: [any Service] = []
        // First, so it is the last to stop: what drains before it may still write to it.
        if let sharedStore {
            services.append(sharedStore)
        }
        services.append(ThreadPoolService(pool: service.pool, logger: logger))
        if let contentClient {
            services.append(contentClient)
        }
        if let forwarder {
            services.append(forwarder.delivery)
        }
        if let duplicates = service.duplicates {
            services.append(DuplicateMemoryService(check: duplicates, interval: .seconds(3600), logger: logger))
        }
        if let socket = configuration.unixSocket {
            services.append(makeListener(address: .unixDomainSocket(path: socket), services: []))
        }
        return makeListener(address: address ?? .hostname(configuration.host, port: configuration.port), services: services)
    }

    /// Runs the daemon until SIGTERM or SIGINT, then drains in-flight requests within the
    /// configured grace period and returns; a process still busy at the end of it exits (code 75).
    package func run() async throws {
        let application = makeApplication()
        // The state service is last so it hears of shutdown first and /readyz turns not-ready
        // while the server drains.
        // Within the grace period the server drains, then what is left is cancelled; just before
        // it ends the process exits whatever is still running (a job stuck in a synchronous loop).
        let grace = configuration.shutdownGracePeriod
        let hardStop = max(grace - .milliseconds(500), grace / 2)
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: application), .init(service: state), .init(service: ShutdownDeadline(deadline: hardStop, logger: logger))],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration = max(grace - .seconds(3), grace / 2)
        try await ServiceGroup(configuration: groupConfiguration).run()
    }

    private func makeListener(address: BindAddress, services: [any Service]) -> Application<RouterResponder<ValidationRequestContext>> {
        let headDeadline = configuration.headerTimeout
        let (bodyLimit, requestTimeout) = (configuration.bodyLimit, configuration.requestTimeout)
        return Application(
            responder: responder,
            // Connections that send nothing (or idle keep-alives) are closed rather than held forever.
            server: .http1(configuration: .init(
                additionalChannelHandlers: [
                    RequestHeadDeadlineHandler(deadline: TimeAmount(headDeadline)), ExpectContinueHandler(),
                    // A body answered early is drained no further than one the daemon would have taken.
                    RefusedBodyDrainHandler(byteLimit: bodyLimit, timeLimit: TimeAmount(requestTimeout)),
                ],
                idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds))
            )),
            configuration: .init(address: address, serverName: "photo-validator",
                                 availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections, logger: logger)),
            services: services,
            logger: logger
        )
    }
}

/// Lets the observability middleware read the route table that is complete only after every
/// route has been added.
private final class RouteTableBox: @unchecked Sendable {
    // Written once during set-up, before the server starts; read-only afterwards.
    var table = RouteTable(routes: [])
}
