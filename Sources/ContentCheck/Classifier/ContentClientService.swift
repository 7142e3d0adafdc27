import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// The HTTP client every content provider call shares (one connection pool), run as a service so
/// it is shut down cleanly after the listeners have drained.
public struct ContentClientService: Service {
    /// The shared client.
    public let client: HTTPClient
    private let logger: Logger

    /// A service owning a new client (`makeClient()`).
    public init(logger: Logger) {
        self.client = Self.makeClient()
        self.logger = logger
    }

    /// A client configured for provider calls on the shared event loop group; the caller shuts it down.
    public static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        // Providers sit behind TLS with keep-alive; idle connections per host are reused.
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        // A refused connection fails the attempt at once; the classifier retries with backoff
        // inside its own deadline, rather than the pool retrying silently until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = .init(connect: .seconds(5))
        configuration.decompression = .enabled(limit: .size(1 << 20))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections (for commands that run without a service group).
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Waits for graceful shutdown, then closes the client's connections.
    public func run() async throws {
        try? await gracefulShutdown()
        do {
            try await client.shutdown()
        } catch {
            logger.warning("content client shutdown", metadata: ["error": .string("\(error)")])
        }
    }
}
