import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The PostgreSQL database replicas share (`store.url`): owns the connection pool, brings the
/// schema up to date when it starts, and hands out transactions to the stores built on it
/// (`SharedProjectMemory`). A service of the daemon's one `ServiceGroup`: the pool runs while it
/// runs and closes when shutdown ends it.
package final class SharedStore: Service, Sendable {
    /// Where the store is in its life, for /readyz.
    package enum Readiness: Sendable, Equatable {
        /// Not yet connected and migrated.
        case starting
        /// Connected, and the schema is at this build's version.
        case ready
        /// The last attempt to reach or migrate the database failed, with why.
        case unavailable(String)
    }

    /// The database, without its password.
    package let endpoint: SharedStoreEndpoint
    /// The pool of connections.
    let client: PostgresClient
    private let logger: Logger
    private let state = Mutex(Readiness.starting)
    private let migrated = Atomic<Bool>(false)
    private let retryDelay: Duration
    private let acquireTimeout: Duration

    /// A store on the database `settings` name; nothing connects before `run()`. Migrations are
    /// tried again every `retryDelay` while they fail; a transaction that has no connection within
    /// `acquireTimeout` fails as unavailable.
    ///
    /// - Throws: `SharedStoreError.invalidURL` for settings that name no usable database.
    package init(settings: SharedStoreSettings, logger: Logger, retryDelay: Duration = .seconds(2),
                acquireTimeout: Duration = .seconds(2)) throws(SharedStoreError) {
        endpoint = try settings.endpoint()
        client = PostgresClient(configuration: try settings.clientConfiguration(), backgroundLogger: logger)
        self.logger = logger
        self.retryDelay = retryDelay
        self.acquireTimeout = acquireTimeout
    }

    /// Where the store is: starting, ready, or unavailable and why.
    package var readiness: Readiness { state.withLock { $0 } }

    /// Runs the pool, migrates the schema (again every `retryDelay` while the database cannot be
    /// reached), and keeps the pool running until graceful shutdown or cancellation.
    package func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            // The pool's run loop starts in the task above; a lease asked before it warns in the log.
            try? await Task.sleep(for: .milliseconds(20))
            await migrateUntilDone()
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    private func migrateUntilDone() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await client.withConnection { connection in
                    _ = try await SharedStoreSchema.migrate(connection, logger: logger)
                }
                migrated.store(true, ordering: .releasing)
                state.withLock { $0 = .ready }
                logger.info("the shared store at \(endpoint) is ready (schema version \(SharedStoreSchema.currentVersion))")
                return
            } catch {
                let reason = "the shared store at \(endpoint) cannot be migrated: \(Self.describe(error))"
                let changed = state.withLock { state in
                    defer { state = .unavailable(reason) }
                    return state != .unavailable(reason)
                }
                if changed { logger.error("\(reason); trying again every \(retryDelay)") }
                try? await Task.sleep(for: retryDelay)
            }
        }
    }

    /// Runs `body` in a transaction on a pooled connection: committed when it returns, rolled
    /// back when it throws. A connection not had within `acquireTimeout` (the database is down:
    /// the pool would otherwise queue the request until its circuit breaker trips, a minute later)
    /// is `SharedStoreError.unavailable`; so is any failure of the database, and the readiness says
    /// so until a transaction succeeds. An error of `body`'s own passes through.
    ///
    /// - Throws: `SharedStoreError.unavailable` before the schema is ready or when the database fails.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await leased(transaction: true, body)
    }

    /// Runs `body` on a pooled connection outside an explicit transaction, each statement committed
    /// by itself (one statement reads one snapshot and writes atomically: no BEGIN and COMMIT round
    /// trips), with `transaction`'s timeout and errors.
    ///
    /// - Throws: `SharedStoreError.unavailable` before the schema is ready or when the database fails.
    func read<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await leased(transaction: false, body)
    }

    private func leased<Result: Sendable>(transaction: Bool, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        // Until this replica has brought the schema to its version (or found it newer), nothing
        // reads or writes it.
        guard migrated.load(ordering: .acquiring) else {
            switch readiness {
            case .unavailable(let reason): throw SharedStoreError.unavailable(reason)
            case .starting, .ready: throw SharedStoreError.unavailable("the shared store at \(endpoint) is still starting")
            }
        }
        let lease = LeaseFlag()
        let client = client, logger = logger, limit = acquireTimeout, endpoint = endpoint
        // The work runs in a task of its own, so that a lease the pool does not give up when
        // cancelled (it can queue a request until its circuit breaker trips, a minute later) never
        // holds the caller past `limit`: the caller is answered, and the body never runs.
        let work = Task<Result, any Error> {
            guard transaction else {
                return try await client.withConnection { connection in
                    try lease.claim(connection)
                    return try await body(connection)
                }
            }
            return try await client.withTransaction(logger: logger) { connection in
                try lease.claim(connection)
                return try await body(connection)
            }
        }
        do {
            let result = try await withTaskCancellationHandler {
                try await Self.outcome(of: work, lease: lease, within: limit, timedOut: {
                    SharedStoreError.unavailable("no connection to the shared store at \(endpoint) within \(limit)")
                }, lost: {
                    SharedStoreError.unavailable("the connection to the shared store at \(endpoint) closed during a statement")
                })
            } onCancel: {
                work.cancel()
            }
            state.withLock { $0 = .ready }
            return result
        } catch let error as SharedStoreError {
            if case .unavailable(let reason) = error { state.withLock { $0 = .unavailable(reason) } }
            throw error
        } catch let error as PostgresTransactionError {
            // The body's own error (a comparison that failed, a cancelled upload) is not the store's.
            if let closureError = error.closureError, !(closureError is PSQLError) { throw closureError }
            throw unavailable(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw unavailable(error)
        }
    }

    /// `work`'s result, or `timedOut()` thrown when `limit` passes before `work` has its connection
    /// (then `work` is cancelled and its lease abandoned, so its body never runs, and nothing waits
    /// for it). Once the connection is had, `work` is waited for as long as its connection is open;
    /// past `limit`, a connection found closed (the database stopped under a statement, whose
    /// completion the driver can then lose) throws `lost()`: nothing more can commit on it.
    private static func outcome<Result: Sendable>(of work: Task<Result, any Error>, lease: LeaseFlag, within limit: Duration,
                                                   timedOut: @escaping @Sendable () -> SharedStoreError,
                                                   lost: @escaping @Sendable () -> SharedStoreError) async throws -> Result {
        let waiting = Waiting<Result>()
        return try await withCheckedThrowingContinuation { continuation in
            waiting.continuation.withLock { $0 = continuation }
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }
                if lease.abandon() {
                    // Answered before the work is cancelled, so its cancellation is never the answer.
                    waiting.continuation.withLock { $0.take() }?.resume(throwing: timedOut())
                    work.cancel()
                    return
                }
                // A statement past the limit: looked at once a second until the work ends.
                while !lease.connectionClosed {
                    do { try await Task.sleep(for: .seconds(1)) } catch { return }
                }
                waiting.continuation.withLock { $0.take() }?.resume(throwing: lost())
                work.cancel()
            }
            Task {
                let result = await work.result
                timer.cancel()
                waiting.continuation.withLock { $0.take() }?.resume(with: result)
            }
        }
    }

    private func unavailable(_ error: any Error) -> SharedStoreError {
        let reason = "the shared store at \(endpoint) failed: \(Self.describe(error))"
        state.withLock { $0 = .unavailable(reason) }
        return .unavailable(reason)
    }

    /// Checks that a statement runs now (for /readyz); returns why not, or nil.
    package func check() async -> String? {
        do {
            try await read { connection in _ = try await connection.query("SELECT 1", logger: self.logger) }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A database error in one line, with the server's message when there is one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return "\(error.code): \(message)" }
            return "\(error.code)" + (error.underlying.map { " (\($0))" } ?? "")
        }
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError, error.rollbackError].compactMap { $0.map(describe) }.first ?? "\(error)"
        }
        return String(describing: error)
    }
}

/// Whether a transaction has its connection or was given up before it had one, shared by the
/// transaction and its acquire timer: whichever comes first decides, so a body never runs once its
/// caller was told the store is unavailable.
private final class LeaseFlag: Sendable {
    /// Thrown inside the lease when the timer gave up first: the body does not run.
    struct Abandoned: Error {}

    // 0 waiting for a connection, 1 leased, 2 abandoned.
    private let value = Atomic<UInt8>(0)
    private let connection = Mutex<PostgresConnection?>(nil)

    /// Marks `connection` as had; throws `Abandoned` when the timer gave up first.
    func claim(_ connection: PostgresConnection) throws {
        self.connection.withLock { $0 = connection }
        guard value.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { throw Abandoned() }
    }

    /// Whether the connection had is closed (false before one is had).
    var connectionClosed: Bool { connection.withLock { $0?.isClosed ?? false } }

    /// Gives up the wait; false when the connection was had first (the body runs, and is waited for).
    func abandon() -> Bool {
        value.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
    }
}

/// The caller of `SharedStore.outcome` until the work or its timer answers it, whichever first.
private final class Waiting<Result: Sendable>: Sendable {
    let continuation = Mutex<CheckedContinuation<Result, any Error>?>(nil)
}

/// A step of a transaction in the shared store that a caller composes without reading it: a
/// signal promised (`SharedOutbox.promise`) or an answer recorded (`SharedOutbox.recording`), run in
/// the transaction that remembers a photo (`SharedProjectMemory.remember`'s `alongside`).
package typealias SharedStatement = @Sendable (PostgresConnection) async throws -> Void
