import Foundation
import Logging
import PostgresNIO
import SignalForwarding
import Synchronization

/// The outbox and the answers to keyed uploads in the shared store, so that every replica
/// delivers what any replica promised and answers a repeat of an upload any replica answered.
///
/// A promised signal is a row of `photo_validator.signal`; a replica claims due ones with
/// `FOR UPDATE SKIP LOCKED` and a lease (their next attempt moved past it), so one attempt per
/// signal is in flight while the lease lasts, and a replica that dies mid-attempt leaves the
/// signal to the others when its lease ends. An answer is a row of
/// `photo_validator.idempotent_upload`, keyed by project and key, stored as the answer's bytes and
/// committed with its signal in one transaction.
package final class SharedOutbox: Sendable {
    let store: SharedStore
    let logger: Logger
    /// When this replica last pruned finished rows (seconds since 1970), so it prunes once a minute.
    let lastPrune = Atomic<Int64>(0)

    /// The outbox in `store`.
    package init(store: SharedStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The statement that promises `photo`'s signal to `workflowID`, to run in a transaction
    /// (`SharedProjectMemory.remember`'s `alongside`, or `enqueue`'s own).
    package static func promise(workflowID: String, signalName: String, photo: PhotoData, now: Date = Date()) throws -> @Sendable (PostgresConnection) async throws -> Void {
        let statement = OutboxStatements.Signal(photoID: photo.photoID, workflowID: workflowID, signalName: signalName,
                                                payload: try payload(photo), time: now.timeIntervalSince1970)
        return { connection in
            for try await _ in try await connection.execute(statement, logger: statementLogger) {}
        }
    }

    /// A signal's payload as stored: the photo's JSON.
    static func payload(_ photo: PhotoData) throws -> String {
        String(decoding: try JSONEncoder().encode(photo), as: UTF8.self)
    }

    /// The logger of statements run inside another's transaction (errors reach the caller as values).
    static let statementLogger = Logger(label: "photo-validator.shared-outbox")

    /// Commits a signal for `photo` to `workflowID`; when this returns, it is in the database.
    ///
    /// - Throws: `SharedStoreError.unavailable` when it could not be written; nothing is promised then.
    package func enqueue(workflowID: String, signalName: String, photo: PhotoData, now: Date = Date()) async throws {
        let promise = try Self.promise(workflowID: workflowID, signalName: signalName, photo: photo, now: now)
        // One statement, committed by itself.
        try await store.read { connection in try await promise(connection) }
    }

    /// The stored answer to the upload with `key` for `projectID`, or nil when there is none
    /// younger than `window`.
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database cannot be read, or the stored
    ///   answer does not parse as an answer naming its photo (`IdempotentUpload.answerChecks`).
    package func idempotentUpload(projectID: String, key: String, window: TimeInterval = SignalOutbox.idempotencyWindow,
                                 now: Date = Date()) async throws -> IdempotentUpload? {
        let cutoff = now.timeIntervalSince1970 - window
        let logger = logger
        return try await store.read { connection in
            try await Self.answer(connection, projectID: projectID, key: key, after: cutoff, logger: logger)
        }
    }

    /// Stores `upload`'s answer and, when given, what is to be committed with it (its signal:
    /// `promise(...)`), in one transaction. When another request (on any replica) stored an answer
    /// for the same key first, nothing is written and that answer is returned; else `upload`.
    ///
    /// - Throws: `SharedStoreError.unavailable` when it could not be written; nothing is promised then.
    package func record(_ upload: IdempotentUpload, window: TimeInterval = SignalOutbox.idempotencyWindow,
                       alongside: @escaping @Sendable (PostgresConnection) async throws -> Void = { _ in }) async throws -> IdempotentUpload {
        let logger = logger
        return try await store.transaction { connection in
            guard let earlier = try await Self.insertAnswer(upload, window: window, connection, logger: logger) else {
                try await alongside(connection)
                return upload
            }
            return earlier
        }
    }

    /// The statement that stores `upload`'s answer and, when given, promises `signal` with it (one
    /// statement, so one round trip), for a transaction that has more to commit with them
    /// (`SharedProjectMemory.remember`'s `alongside`: the photo's fingerprint). When another request
    /// stored a live answer for the key first it throws `EarlierAnswer`, so the whole transaction
    /// rolls back and the caller replays that answer.
    package static func recording(_ upload: IdempotentUpload, window: TimeInterval = SignalOutbox.idempotencyWindow,
                                 promising signal: (workflowID: String, signalName: String, photo: PhotoData)?) throws -> @Sendable (PostgresConnection) async throws -> Void {
        let answer = answerStatement(upload, window: window)
        let both = try signal.map {
            OutboxStatements.AnswerAndSignal(answer: answer, workflowID: $0.workflowID, signalName: $0.signalName, payload: try payload($0.photo))
        }
        return { connection in
            var stored = false
            if let both {
                for try await _ in try await connection.execute(both, logger: statementLogger) { stored = true }
            } else {
                for try await _ in try await connection.execute(answer, logger: statementLogger) { stored = true }
            }
            guard stored else { throw EarlierAnswer(upload: try await earlierAnswer(to: upload, connection, logger: statementLogger)) }
        }
    }

    /// The statement that stores `upload`'s answer unless its key has one younger than `window`.
    private static func answerStatement(_ upload: IdempotentUpload, window: TimeInterval) -> OutboxStatements.Answer {
        let time = upload.createdAt.timeIntervalSince1970
        return OutboxStatements.Answer(
            upload: (upload.projectID, upload.key, upload.requestDigest, upload.photoID, ByteBuffer(string: upload.answer), time),
            cutoff: time - window)
    }

    /// Another request (on any replica) stored the answer for the key first; nothing was committed.
    package struct EarlierAnswer: Error, Sendable {
        /// The answer stored first.
        package let upload: IdempotentUpload
    }

    /// Inserts `upload`'s answer; returns nil when stored, or the live answer another request
    /// stored for the key first (then nothing was written).
    private static func insertAnswer(_ upload: IdempotentUpload, window: TimeInterval, _ connection: PostgresConnection,
                                     logger: Logger) async throws -> IdempotentUpload? {
        // A racing insert of the same key on another replica waits here for that transaction,
        // then conflicts: the first answer stands (an expired one is replaced).
        for try await _ in try await connection.execute(answerStatement(upload, window: window), logger: logger) { return nil }
        return try await earlierAnswer(to: upload, connection, logger: logger)
    }

    /// The answer that kept `upload` from being stored.
    private static func earlierAnswer(to upload: IdempotentUpload, _ connection: PostgresConnection, logger: Logger) async throws -> IdempotentUpload {
        guard let earlier = try await answer(connection, projectID: upload.projectID, key: upload.key, after: -.infinity, logger: logger) else {
            throw SharedStoreError.unavailable("the answer for Idempotency-Key '\(upload.key)' vanished while it was read")
        }
        return earlier
    }

    private static func answer(_ connection: PostgresConnection, projectID: String, key: String, after cutoff: Double,
                               logger: Logger) async throws -> IdempotentUpload? {
        let rows = try await connection.query("""
            SELECT request_digest, photo_id, answer, created_at FROM photo_validator.idempotent_upload
            WHERE project_id = \(projectID) AND key = \(key) AND created_at >= \(cutoff)
            """, logger: logger)
        for try await (digest, photoID, answer, created) in rows.decode((String, String, ByteBuffer, Double).self) {
            // The table keeps no digest beside the answer: the answer is checked by its shape before it is replayed.
            let stored = IdempotentUpload(projectID: projectID, key: key, requestDigest: digest, photoID: photoID, answer: String(buffer: answer),
                                          createdAt: Date(timeIntervalSince1970: created), answerDigest: nil)
            guard stored.answerChecks else { throw SharedStoreError.unavailable(stored.uncheckedDescription(in: "the shared store")) }
            return stored
        }
        return nil
    }

    /// Claims up to `limit` pending signals due at `now` for this replica, oldest first: each
    /// moves its next attempt to `now + lease`, so no replica claims it again before then (the
    /// attempt must end within the lease, with `markDelivered`, `scheduleRetry` or `markDead`).
    /// Rows other replicas are claiming at the same moment are skipped, not waited for.
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database cannot be written.
    package func claimDue(now: Date = Date(), lease: TimeInterval = 60, limit: Int = 32) async throws -> [OutboxEntry] {
        let time = now.timeIntervalSince1970
        let logger = logger
        // One statement, committed by itself: its row locks last while it runs, its lease after.
        return try await store.read { connection in
            let rows = try await connection.query("""
                UPDATE photo_validator.signal SET next_attempt_at = \(time + lease) WHERE id IN (
                    SELECT id FROM photo_validator.signal WHERE state = 'pending' AND next_attempt_at <= \(time)
                    ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING \(unescaped: Self.columns)
                """, logger: logger)
            var entries: [OutboxEntry] = []
            var unreadable: [Int64] = []
            for try await row in rows {
                let (id, entry) = try Self.entry(row)
                if let entry { entries.append(entry) } else { unreadable.append(id) }
            }
            // A row no replica can read would be claimed at every lease for ever: it is a dead letter.
            for id in unreadable {
                try await connection.query("""
                    UPDATE photo_validator.signal SET state = 'dead', dead_reason = 'unreadable payload in the outbox', finished_at = \(time)
                    WHERE id = \(id)
                    """, logger: logger)
            }
            return entries.sorted { $0.id < $1.id }
        }
    }

    /// Records a successful delivery.
    package func markDelivered(_ id: Int64, now: Date = Date()) async throws {
        try await execute("""
            UPDATE photo_validator.signal SET state = 'delivered', attempts = attempts + 1, finished_at = \(now.timeIntervalSince1970), last_error = NULL
            WHERE id = \(id)
            """)
    }

    /// Records a failed attempt and when to try again.
    package func scheduleRetry(_ id: Int64, at next: Date, error: String) async throws {
        try await execute("""
            UPDATE photo_validator.signal SET attempts = attempts + 1, next_attempt_at = \(next.timeIntervalSince1970), last_error = \(error)
            WHERE id = \(id)
            """)
    }

    /// Gives a signal up, with the reason.
    package func markDead(_ id: Int64, reason: String, now: Date = Date()) async throws {
        try await execute("""
            UPDATE photo_validator.signal SET state = 'dead', attempts = attempts + 1, dead_reason = \(reason), finished_at = \(now.timeIntervalSince1970)
            WHERE id = \(id)
            """)
    }

    /// Puts dead letters back in the queue with a fresh age window: all of them, or the one for
    /// `photoID`. Returns how many were requeued.
    @discardableResult
    package func retryDeadLetters(photoID: String? = nil, now: Date = Date()) async throws -> Int {
        let time = now.timeIntervalSince1970
        let logger = logger
        return try await store.transaction { connection in
            let rows = try await connection.query("""
                UPDATE photo_validator.signal SET state = 'pending', dead_reason = NULL, finished_at = NULL, age_from = \(time), next_attempt_at = \(time)
                WHERE state = 'dead' AND (\(photoID)::text IS NULL OR photo_id = \(photoID)) RETURNING id
                """, logger: logger)
            var count = 0
            for try await _ in rows { count += 1 }
            return count
        }
    }

    /// Counts by state, over every replica's signals, and the age of the oldest pending one.
    package func counts(now: Date = Date()) async throws -> OutboxCounts {
        let logger = logger
        return try await store.read { connection in
            let rows = try await connection.query("""
                SELECT COUNT(*) FILTER (WHERE state = 'pending'), COUNT(*) FILTER (WHERE state = 'delivered'),
                       COUNT(*) FILTER (WHERE state = 'dead'), MIN(enqueued_at) FILTER (WHERE state = 'pending')
                FROM photo_validator.signal
                """, logger: logger)
            for try await (pending, delivered, dead, oldest) in rows.decode((Int, Int, Int, Double?).self) {
                return OutboxCounts(pending: pending, delivered: delivered, dead: dead,
                                    oldestPendingAgeSeconds: oldest.map { max(0, now.timeIntervalSince1970 - $0) })
            }
            return OutboxCounts(pending: 0, delivered: 0, dead: 0, oldestPendingAgeSeconds: nil)
        }
    }

    /// The most recent dead letters of every replica, newest first.
    package func deadLetters(limit: Int = 20) async throws -> [OutboxEntry] {
        let logger = logger
        return try await store.read { connection in
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.columns) FROM photo_validator.signal WHERE state = 'dead' ORDER BY finished_at DESC, id DESC LIMIT \(limit)
                """, logger: logger)
            var entries: [OutboxEntry] = []
            for try await row in rows {
                if let entry = try Self.entry(row).entry { entries.append(entry) }
            }
            return entries
        }
    }

    /// Runs one statement, committed by itself (no BEGIN and COMMIT round trips).
    func execute(_ query: PostgresQuery) async throws {
        let logger = logger
        try await store.read { connection in _ = try await connection.query(query, logger: logger) }
    }

    private static let columns = "id, workflow_id, signal_name, payload, state, attempts, enqueued_at, age_from, last_error, dead_reason, finished_at"

    /// A row's id and the row as an entry, nil when its payload or state cannot be read.
    private static func entry(_ row: PostgresRow) throws -> (id: Int64, entry: OutboxEntry?) {
        let (id, workflowID, signalName, payload, state, attempts, enqueued, ageFrom, lastError, deadReason, finished) =
            try row.decode((Int64, String, String, String, String, Int32, Double, Double, String?, String?, Double?).self)
        guard let photo = try? JSONDecoder().decode(PhotoData.self, from: Data(payload.utf8)), let state = OutboxEntry.State(rawValue: state) else {
            return (id, nil)
        }
        return (id, OutboxEntry(id: id, workflowID: workflowID, signalName: signalName, photo: photo, state: state, attempts: Int(attempts),
                           enqueuedAt: Date(timeIntervalSince1970: enqueued), ageFrom: Date(timeIntervalSince1970: ageFrom),
                           lastError: lastError, deadReason: deadReason, finishedAt: finished.map(Date.init(timeIntervalSince1970:))))
    }
}
