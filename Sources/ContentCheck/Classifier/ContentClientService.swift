import AsyncHTTPClient
import Logging
import ServiceLifecycle
import Synchronization

/// The HTTP client every content provider call shares (one connection pool), run as a service so
/// it is shut down cleanly after the listeners have drained. The client is made on the first call,
/// so a service that is built and never run (or whose application fails to build later) holds no
/// client that would have to be shut down.
package final class ContentClientService: Service, Sendable {
    private enum State {
        case idle
        case made(HTTPClient)
        case shutDown
    }

    private let state = Mutex(State.idle)
    private let logger: Logger

    /// A service whose client (`makeClient()`) is made on first use.
    package init(logger: Logger) {
        self.logger = logger
    }

    /// The shared client, made now if this is the first call. After shutdown it is a client that
    /// is already shut down, so a late call fails as a connection error instead of opening a pool.
    package var client: HTTPClient {
        let (client, late) = state.withLock { state -> (HTTPClient, Bool) in
            switch state {
            case .made(let client):
                return (client, false)
            case .idle:
                let client = Self.makeClient()
                state = .made(client)
                return (client, false)
            case .shutDown:
                return (Self.makeClient(), true)
            }
        }
        if late { Task { try? await client.shutdown() } }
        return client
    }

    /// A client configured for provider calls on the shared event loop group; the caller shuts it down.
    package static func makeClient() -> HTTPClient {
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

    /// Closes the client's connections, if it was ever made (for commands that run without a service group).
    package func shutdown() async {
        let made = state.withLock { state -> HTTPClient? in
            defer { state = .shutDown }
            if case .made(let client) = state { return client }
            return nil
        }
        do {
            try await made?.shutdown()
        } catch {
            logger.warning("content client shutdown", metadata: ["error": .string("\(error)")])
        }
    }

    /// Waits for graceful shutdown, then closes the client's connections.
    package func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }
}
