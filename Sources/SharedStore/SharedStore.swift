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
    private let timeout: Duration

    /// A store on the database `settings` name; nothing connects before `run()`. Migrations are
    /// tried again every `retryDelay` while they fail; a call that has not had its connection and
    /// its statements' answers within `settings.timeout` fails as unavailable.
    ///
    /// - Throws: `SharedStoreError.invalidURL` for settings that name no usable database.
    package init(settings: SharedStoreSettings, logger: Logger, retryDelay: Duration = .seconds(2)) throws(SharedStoreError) {
        endpoint = try settings.endpoint()
        client = PostgresClient(configuration: try settings.clientConfiguration(), backgroundLogger: logger)
        self.logger = logger
        self.retryDelay = retryDelay
        self.timeout = settings.timeout
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
    /// back when it throws. The connection and every statement together must be had within the
    /// store's timeout (`store.timeout_seconds`), time `body` spends away from the database
    /// (`awayFromDatabase`) not counted: a connection not had by then (the database is down: the
    /// pool would otherwise queue the request until its circuit breaker trips, a minute later) is
    /// `SharedStoreError.unavailable`, and so is a statement not answered by then (the database
    /// stopped answering: a partition, a paused machine), whose connection is then closed, never
    /// returned to the pool. So is any failure of the database, and the readiness says so until a
    /// call succeeds. An error of `body`'s own passes through.
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

    /// Runs `work`, part of a call's body that is not the database's (comparing photos on the
    /// worker threads), with the call's deadline standing still meanwhile: the store's timeout
    /// bounds the database's answers, not the caller's own work between them.
    static func awayFromDatabase<Result>(_ work: () async throws -> Result) async rethrows -> Result {
        guard let lease = Lease.current else { return try await work() }
        lease.leaveDatabase(now: .now)
        defer { lease.returnToDatabase(now: .now) }
        return try await work()
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
        let lease = Lease(deadline: .now + timeout)
        let client = client, logger = logger, limit = timeout, endpoint = endpoint
        // The work runs in a task of its own, so that a lease the pool does not give up when
        // cancelled (it can queue a request until its circuit breaker trips, a minute later), or a
        // statement the database never answers, never holds the caller past its deadline: the
        // caller is answered, and the body never runs or its connection is closed.
        let work = Task<Result, any Error> {
            try await Lease.$current.withValue(lease) {
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
        }
        do {
            let result = try await withTaskCancellationHandler {
                try await Self.outcome(of: work, lease: lease, failures: Failures(
                    timedOut: .unavailable("no connection to the shared store at \(endpoint) within \(limit) (store.timeout_seconds)"),
                    overdue: .unavailable("the shared store at \(endpoint) did not answer within \(limit) (store.timeout_seconds); "
                        + "its connection was closed, and nothing more commits on it"),
                    lost: .unavailable("the connection to the shared store at \(endpoint) closed during a statement")
                ))
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

    /// What a call that did not finish in time throws: before it had its connection (`timedOut`),
    /// after (`overdue`), or when its connection closed under a statement (`lost`).
    private struct Failures: Sendable {
        let timedOut: SharedStoreError
        let overdue: SharedStoreError
        let lost: SharedStoreError
    }

    /// `work`'s result, or one of `failures` thrown at the lease's deadline, whichever comes first.
    /// Before `work` has its connection, `work` is cancelled and its lease abandoned, so its body
    /// never runs; after, its connection is closed (a statement may be waiting on it: the pool
    /// drops a closed connection, and the database rolls back what was not committed). A
    /// connection found closed before the deadline (the database stopped under a statement, whose
    /// completion the driver can then lose) throws `lost` at once: nothing more can commit on it.
    private static func outcome<Result: Sendable>(of work: Task<Result, any Error>, lease: Lease, failures: Failures) async throws -> Result {
        let waiting = Waiting<Result>()
        return try await withCheckedThrowingContinuation { continuation in
            waiting.continuation.withLock { $0 = continuation }
            let timer = Task {
                while true {
                    switch lease.check(now: .now) {
                    case .onTime(let until):
                        // A connection closed under a statement is looked at once a second.
                        do { try await Task.sleep(until: min(until, ContinuousClock.now + .seconds(1)), clock: .continuous) } catch { return }
                    case .connectionClosed:
                        waiting.continuation.withLock { $0.take() }?.resume(throwing: failures.lost)
                        work.cancel()
                        return
                    case .overdueWithoutConnection:
                        guard lease.abandon() else { continue }
                        // Answered before the work is cancelled, so its cancellation is never the answer.
                        waiting.continuation.withLock { $0.take() }?.resume(throwing: failures.timedOut)
                        work.cancel()
                        return
                    case .overdue(let connection):
                        waiting.continuation.withLock { $0.take() }?.resume(throwing: failures.overdue)
                        work.cancel()
                        // Not returned to the pool: a closed connection is dropped from it.
                        try? await connection.close()
                        return
                    }
                }
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

/// One call's lease of a connection, shared by the call and its timer: whether it has its
/// connection or was given up before it had one (whichever comes first decides, so a body never
/// runs once its caller was told the store is unavailable), the connection had, and the call's
/// deadline, which stands still while the body is away from the database (`SharedStore.awayFromDatabase`).
private final class Lease: Sendable {
    /// Thrown inside the lease when the timer gave up first: the body does not run.
    struct Abandoned: Error {}

    /// What the timer finds when it looks.
    enum Check {
        /// Nothing to do before `until` (the deadline, or a guess while the body is away).
        case onTime(until: ContinuousClock.Instant)
        /// The connection had is closed: nothing more commits on it.
        case connectionClosed
        /// The deadline passed before a connection was had.
        case overdueWithoutConnection
        /// The deadline passed with this connection leased.
        case overdue(PostgresConnection)
    }

    /// The lease of the call running in the current task, for `SharedStore.awayFromDatabase`.
    @TaskLocal static var current: Lease?

    private struct State {
        /// When the call must be answered.
        var deadline: ContinuousClock.Instant
        /// Since when the body is away from the database, if it is; `away` counts nested leaves.
        var awaySince: ContinuousClock.Instant?
        var away = 0
        var connection: PostgresConnection?
    }

    // 0 waiting for a connection, 1 leased, 2 abandoned.
    private let value = Atomic<UInt8>(0)
    private let state: Mutex<State>

    /// A lease due at `deadline`.
    init(deadline: ContinuousClock.Instant) {
        state = Mutex(State(deadline: deadline))
    }

    /// Marks `connection` as had; throws `Abandoned` when the timer gave up first.
    func claim(_ connection: PostgresConnection) throws {
        state.withLock { $0.connection = connection }
        guard value.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { throw Abandoned() }
    }

    /// Gives up the wait; false when the connection was had first (then the deadline bounds its statements).
    func abandon() -> Bool {
        value.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged
    }

    /// The body leaves the database for work of its own: the deadline stands still until it returns.
    func leaveDatabase(now: ContinuousClock.Instant) {
        state.withLock { state in
            if state.away == 0 { state.awaySince = now }
            state.away += 1
        }
    }

    /// The body is back at the database: the deadline moves by the time it was away.
    func returnToDatabase(now: ContinuousClock.Instant) {
        state.withLock { state in
            state.away -= 1
            guard state.away == 0, let since = state.awaySince else { return }
            state.deadline += now - since
            state.awaySince = nil
        }
    }

    /// What is due at `now`.
    func check(now: ContinuousClock.Instant) -> Check {
        let leased = value.load(ordering: .acquiring) == 1
        return state.withLock { state in
            if leased, state.connection?.isClosed == true { return .connectionClosed }
            if let since = state.awaySince { return .onTime(until: now + (state.deadline - since)) }
            guard now >= state.deadline else { return .onTime(until: state.deadline) }
            guard leased, let connection = state.connection else { return .overdueWithoutConnection }
            return .overdue(connection)
        }
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
