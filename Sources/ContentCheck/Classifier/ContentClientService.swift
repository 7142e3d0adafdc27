import AsyncHTTPClient
import Logging
import ServiceLifecycle

/// The HTTP client every content provider call shares (one connection pool), run as a service so
/// it is shut down cleanly after the listeners have drained.
public struct ContentClientService: Service {
    /// The shared client.
    public let client: HTTPClient
    private let logger: Logger

    /// A service owning a new client on the shared event loop group.
    public init(logger: Logger) {
        var configuration = HTTPClient.Configuration()
        // Providers sit behind TLS with keep-alive; a few idle connections per host are reused.
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        configuration.timeout = .init(connect: .seconds(5))
        configuration.decompression = .enabled(limit: .size(1 << 20))
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.logger = logger
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
