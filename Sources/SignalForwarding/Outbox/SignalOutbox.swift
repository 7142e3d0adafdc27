import Foundation
import GRDB

/// The durable outbox: an SQLite database (WAL) where a signal is committed before the upload is
/// answered, and from which the delivery service sends it, across restarts, until it is delivered
/// or given up.
package final class SignalOutbox: Sendable {
    /// The database file.
    package let path: String
    let database: DatabasePool
    private let encoder = JSONEncoder()
    /// How long an idempotency key is remembered: a repeat within it gets the first answer.
    package static let idempotencyWindow: TimeInterval = 86_400

    /// Free space the volume must keep: below it nothing new is promised, so delivery can
    /// still record its outcomes.
    package let minimumFreeBytes: Int64
    /// How many idempotent answers are kept, per project and in all.
    package let answerLimits: IdempotentAnswerLimits
    private let onAnswersEvicted: @Sendable (_ reason: IdempotentAnswerLimits.Eviction, _ count: Int) -> Void

    /// Opens (creating if needed) the outbox at `path`, refusing new promises when its volume has
    /// less than `minimumFreeBytes` free, and keeping idempotent answers within `answerLimits`
    /// (`onAnswersEvicted` hears of the oldest ones it forgets to stay within them).
    ///
    /// - Throws: `OutboxError.unavailable` when the file cannot be opened or migrated.
    package init(path: String, minimumFreeBytes: Int64 = 0, answerLimits: IdempotentAnswerLimits = .default,
                onAnswersEvicted: @escaping @Sendable (_ reason: IdempotentAnswerLimits.Eviction, _ count: Int) -> Void = { _, _ in }) throws(OutboxError) {
        self.path = path
        self.minimumFreeBytes = minimumFreeBytes
        self.answerLimits = answerLimits
        self.onAnswersEvicted = onAnswersEvicted
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = Configuration()
            // A write normally takes milliseconds; a lock held this long means the outbox is stuck.
            configuration.busyMode = .timeout(2)
            database = try DatabasePool(path: path, configuration: configuration)
            // GRDB opens WAL databases with synchronous=NORMAL, which can lose the last commits
            // on power loss; a promised signal must survive that, so every commit is synced.
            try database.barrierWriteWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            try Self.migrator.migrate(database)
        } catch {
            throw .unavailable("cannot open the outbox at \(path): \(error)")
        }
    }

    /// The outbox's schema, one migration a change (internal so a test can make an outbox of an earlier schema).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("create signal") { db in
            try db.execute(sql: """
                CREATE TABLE signal (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    photo_id TEXT NOT NULL UNIQUE,
                    workflow_id TEXT NOT NULL,
                    signal_name TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending',
                    attempts INTEGER NOT NULL DEFAULT 0,
                    enqueued_at DOUBLE NOT NULL,
                    age_from DOUBLE NOT NULL,
                    next_attempt_at DOUBLE NOT NULL,
                    last_error TEXT,
                    dead_reason TEXT,
                    finished_at DOUBLE
                );
                CREATE INDEX signal_due ON signal(state, next_attempt_at);
                """)
        }
        migrator.registerMigration("create idempotent_upload") { db in
            try db.execute(sql: """
                CREATE TABLE idempotent_upload (
                    project_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    request_digest TEXT NOT NULL,
                    photo_id TEXT NOT NULL,
                    answer TEXT NOT NULL,
                    created_at DOUBLE NOT NULL,
                    PRIMARY KEY (project_id, key)
                );
                CREATE INDEX idempotent_upload_age ON idempotent_upload(created_at);
                """)
        }
        migrator.registerMigration("count idempotent_upload") { db in
            // Kept by triggers in the transactions that change the rows, so the budget is checked
            // without summing the table on every upload.
            try db.execute(sql: """
                CREATE TABLE idempotent_usage (id INTEGER PRIMARY KEY CHECK (id = 1), rows INTEGER NOT NULL, bytes INTEGER NOT NULL);
                INSERT INTO idempotent_usage (id, rows, bytes)
                    SELECT 1, COUNT(*), COALESCE(SUM(length(CAST(answer AS BLOB))), 0) FROM idempotent_upload;
                CREATE TRIGGER idempotent_upload_added AFTER INSERT ON idempotent_upload BEGIN
                    UPDATE idempotent_usage SET rows = rows + 1, bytes = bytes + length(CAST(NEW.answer AS BLOB)) WHERE id = 1;
                END;
                CREATE TRIGGER idempotent_upload_removed AFTER DELETE ON idempotent_upload BEGIN
                    UPDATE idempotent_usage SET rows = rows - 1, bytes = bytes - length(CAST(OLD.answer AS BLOB)) WHERE id = 1;
                END;
                """)
        }
        migrator.registerMigration("digest idempotent_upload answers") { db in
            // Rows stored before it keep a NULL digest: their answers are checked by their shape instead.
            try db.execute(sql: "ALTER TABLE idempotent_upload ADD COLUMN answer_digest TEXT")
        }
        return migrator
    }

    /// Commits a signal for `photo` to `workflowID`, and in the same transaction the accepted
    /// photo's fingerprint `row` when given; when this returns, the signal is on disk.
    ///
    /// - Throws: `OutboxError.unavailable` when it could not be written; nothing is promised then.
    package func enqueue(workflowID: String, signalName: String, photo: PhotoData, fingerprint row: FingerprintRow? = nil,
                        now: Date = Date()) async throws(OutboxError) {
        try checkFreeSpace()
        do {
            let payload = String(decoding: try encoder.encode(photo), as: UTF8.self)
            try await database.write { db in
                try Self.insertSignal(db, workflowID: workflowID, signalName: signalName, photoID: photo.photoID, payload: payload, time: now.timeIntervalSince1970)
                try row?.write(db)
            }
        } catch {
            throw .unavailable("cannot write to the outbox at \(path): \(error)")
        }
    }

    /// The stored answer to the upload with `key` for `projectID`, or nil when there is none
    /// younger than `window`.
    ///
    /// - Throws: `OutboxError.unavailable` when the outbox cannot be read, or the stored answer
    ///   does not check (`IdempotentUpload.answerChecks`).
    package func idempotentUpload(projectID: String, key: String, window: TimeInterval = idempotencyWindow, now: Date = Date()) async throws(OutboxError) -> IdempotentUpload? {
        let stored: IdempotentUpload?
        do {
            stored = try await database.read { db in
                try IdempotentUpload.fetchOne(db, sql: "SELECT * FROM idempotent_upload WHERE project_id = ? AND key = ? AND created_at >= ?",
                                              arguments: [projectID, key, now.timeIntervalSince1970 - window])
            }
        } catch {
            throw .unavailable("cannot read the outbox at \(path): \(error)")
        }
        return try stored?.checked(in: path)
    }

    /// Stores `upload`'s answer and, when it promises one, its signal and the accepted photo's
    /// fingerprint `row`, in one transaction. When another request stored an answer for the same
    /// key first, nothing is written and that answer is returned instead; otherwise `upload`
    /// itself. The oldest answers of the project, then of all, are forgotten to stay within
    /// `answerLimits`; an answer larger than `answerLimits.answerBytes` is refused.
    ///
    /// - Throws: `OutboxError.unavailable` when it could not be written (nothing is promised then),
    ///   or when the answer stored first does not check (`IdempotentUpload.answerChecks`).
    package func record(_ upload: IdempotentUpload, promising signal: (workflowID: String, signalName: String, photo: PhotoData)?,
                       fingerprint row: FingerprintRow? = nil, window: TimeInterval = idempotencyWindow) async throws(OutboxError) -> IdempotentUpload {
        guard upload.answer.utf8.count <= answerLimits.answerBytes else {
            throw .unavailable("the answer to keep for Idempotency-Key '\(upload.key)' is \(upload.answer.utf8.count) bytes, over the \(answerLimits.answerBytes)-byte limit")
        }
        try checkFreeSpace()
        let limits = answerLimits
        let outcome: (stored: IdempotentUpload, evicted: [(IdempotentAnswerLimits.Eviction, Int)])
        do {
            let payload = try signal.map { String(decoding: try encoder.encode($0.photo), as: UTF8.self) }
            outcome = try await database.write { db in
                let time = upload.createdAt.timeIntervalSince1970
                if let earlier = try IdempotentUpload.fetchOne(db, sql: "SELECT * FROM idempotent_upload WHERE project_id = ? AND key = ?",
                                                               arguments: [upload.projectID, upload.key]) {
                    if earlier.createdAt.timeIntervalSince1970 >= time - window { return (earlier, []) }
                    try db.execute(sql: "DELETE FROM idempotent_upload WHERE project_id = ? AND key = ?", arguments: [upload.projectID, upload.key])
                }
                try upload.insert(db)
                if let signal, let payload {
                    try Self.insertSignal(db, workflowID: signal.workflowID, signalName: signal.signalName, photoID: signal.photo.photoID, payload: payload, time: time)
                }
                try row?.write(db)
                return (upload, try Self.evictAnswers(db, projectID: upload.projectID, limits: limits))
            }
        } catch {
            throw .unavailable("cannot write to the outbox at \(path): \(error)")
        }
        for (reason, count) in outcome.evicted where count > 0 { onAnswersEvicted(reason, count) }
        // Another request's answer, read back, is replayed only when it checks.
        return try outcome.stored.checked(in: path)
    }

    /// Deletes the oldest answers of `projectID` beyond its share, then the oldest of all while
    /// over the byte budget; returns how many for each reason.
    private static func evictAnswers(_ db: Database, projectID: String, limits: IdempotentAnswerLimits) throws -> [(IdempotentAnswerLimits.Eviction, Int)] {
        try db.execute(sql: """
            DELETE FROM idempotent_upload WHERE project_id = ? AND key IN (
                SELECT key FROM idempotent_upload WHERE project_id = ? ORDER BY created_at DESC, key DESC LIMIT -1 OFFSET ?)
            """, arguments: [projectID, projectID, limits.answersPerProject])
        let fromProject = db.changesCount
        var fromBudget = 0
        while let row = try Row.fetchOne(db, sql: "SELECT rows, bytes FROM idempotent_usage WHERE id = 1"),
              (row["bytes"] as Int) > limits.totalBytes || (row["rows"] as Int) > limits.totalAnswers {
            // A tenth of the rows at a time: the budget is rarely crossed by much.
            let batch = max(1, (row["rows"] as Int) / 10)
            try db.execute(sql: """
                DELETE FROM idempotent_upload WHERE rowid IN (SELECT rowid FROM idempotent_upload ORDER BY created_at LIMIT ?)
                """, arguments: [batch])
            guard db.changesCount > 0 else { break }
            fromBudget += db.changesCount
        }
        return [(.projectFull, fromProject), (.budget, fromBudget)]
    }

    /// Idempotent answers kept and their bytes.
    package func answerUsage() async throws -> (answers: Int, bytes: Int) {
        try await database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT rows, bytes FROM idempotent_usage WHERE id = 1")
            return (row?["rows"] ?? 0, row?["bytes"] ?? 0)
        }
    }

    /// Pending signals whose next attempt is due at `now`, oldest first. A row whose payload
    /// cannot be read is made a dead letter here, so it cannot stall the others.
    ///
    /// A read: the delivery loop polls this every second, and in WAL mode a read never waits for
    /// a writer (an upload's commit, or another process holding the file), so polling takes the
    /// write lock only in the rare case that there is an unreadable row to put aside.
    package func due(now: Date = Date(), limit: Int = 32) async throws -> [OutboxEntry] {
        let (entries, unreadable) = try await database.read { db in
            var entries: [OutboxEntry] = []
            var unreadable: [(id: Int64, reason: String)] = []
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM signal WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?",
                                        arguments: [now.timeIntervalSince1970, limit])
            for row in rows {
                do {
                    entries.append(try OutboxEntry(row: row))
                } catch {
                    unreadable.append((row["id"], "unreadable payload in the outbox: \(error)"))
                }
            }
            return (entries, unreadable)
        }
        if !unreadable.isEmpty {
            try await database.write { db in
                for (id, reason) in unreadable {
                    try db.execute(sql: "UPDATE signal SET state = 'dead', dead_reason = ?, finished_at = ? WHERE id = ? AND state = 'pending'",
                                   arguments: [reason, now.timeIntervalSince1970, id])
                }
            }
        }
        return entries
    }

    /// When the next pending signal is due, or nil when none is pending.
    package func nextDueDate() async throws -> Date? {
        try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM signal WHERE state = 'pending'")
        }.map(Date.init(timeIntervalSince1970:))
    }

    /// Records a successful delivery.
    package func markDelivered(_ id: Int64, now: Date = Date()) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE signal SET state = 'delivered', attempts = attempts + 1, finished_at = ?, last_error = NULL WHERE id = ?",
                           arguments: [now.timeIntervalSince1970, id])
        }
    }

    /// Records a failed attempt and when to try again.
    package func scheduleRetry(_ id: Int64, at next: Date, error: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE signal SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?",
                           arguments: [next.timeIntervalSince1970, error, id])
        }
    }

    /// Gives a signal up, with the reason.
    package func markDead(_ id: Int64, reason: String, now: Date = Date()) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE signal SET state = 'dead', attempts = attempts + 1, dead_reason = ?, finished_at = ? WHERE id = ?",
                           arguments: [reason, now.timeIntervalSince1970, id])
        }
    }

    /// Puts dead letters back in the queue with a fresh age window: all of them, or the one for
    /// `photoID`. Returns how many were requeued.
    @discardableResult
    package func retryDeadLetters(photoID: String? = nil, now: Date = Date()) async throws -> Int {
        try await database.write { db in
            let time = now.timeIntervalSince1970
            if let photoID {
                try db.execute(sql: "UPDATE signal SET state = 'pending', dead_reason = NULL, finished_at = NULL, age_from = ?, next_attempt_at = ? WHERE state = 'dead' AND photo_id = ?",
                               arguments: [time, time, photoID])
            } else {
                try db.execute(sql: "UPDATE signal SET state = 'pending', dead_reason = NULL, finished_at = NULL, age_from = ?, next_attempt_at = ? WHERE state = 'dead'",
                               arguments: [time, time])
            }
            return db.changesCount
        }
    }

    /// Counts by state and the age of the oldest pending signal.
    package func counts(now: Date = Date()) async throws -> OutboxCounts {
        try await database.read { db in
            var counts = OutboxCounts(pending: 0, delivered: 0, dead: 0, oldestPendingAgeSeconds: nil)
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS count FROM signal GROUP BY state") {
                let count: Int = row["count"]
                switch OutboxEntry.State(rawValue: row["state"]) {
                case .pending: counts.pending = count
                case .delivered: counts.delivered = count
                case .dead: counts.dead = count
                case nil: break
                }
            }
            if let oldest = try Double.fetchOne(db, sql: "SELECT MIN(enqueued_at) FROM signal WHERE state = 'pending'") {
                counts.oldestPendingAgeSeconds = max(0, now.timeIntervalSince1970 - oldest)
            }
            return counts
        }
    }

    /// The most recent dead letters, newest first.
    package func deadLetters(limit: Int = 20) async throws -> [OutboxEntry] {
        try await database.read { db in
            try OutboxEntry.fetchAll(db, sql: "SELECT * FROM signal WHERE state = 'dead' ORDER BY finished_at DESC, id DESC LIMIT ?", arguments: [limit])
        }
    }

    /// The entry for `photoID`, or nil.
    package func entry(photoID: String) async throws -> OutboxEntry? {
        try await database.read { db in
            try OutboxEntry.fetchOne(db, sql: "SELECT * FROM signal WHERE photo_id = ?", arguments: [photoID])
        }
    }

    /// Deletes delivered signals finished before `cutoff`.
    package func pruneDelivered(before cutoff: Date) async throws {
        _ = try await database.write { db in
            try db.execute(sql: "DELETE FROM signal WHERE state = 'delivered' AND finished_at < ?", arguments: [cutoff.timeIntervalSince1970])
        }
    }

    /// Forgets idempotency keys stored before `cutoff`.
    package func pruneIdempotentUploads(before cutoff: Date) async throws {
        _ = try await database.write { db in
            try db.execute(sql: "DELETE FROM idempotent_upload WHERE created_at < ?", arguments: [cutoff.timeIntervalSince1970])
        }
    }

    /// Throws unless the volume keeps its free-space reserve and a write transaction can be
    /// taken right now (for readiness).
    package func checkWritable() async throws(OutboxError) {
        try checkFreeSpace()
        do {
            try await database.write { db in
                try db.execute(sql: "UPDATE signal SET id = id WHERE 0")
            }
        } catch {
            throw .unavailable("the outbox at \(path) is not writable: \(error)")
        }
    }

    /// Throws when the outbox's volume has less than `minimumFreeBytes` free. SQLite reuses
    /// freed pages, so a full volume would not stop a commit; the reserve makes it refuse in time.
    private func checkFreeSpace() throws(OutboxError) {
        guard minimumFreeBytes > 0 else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard let free = (try? FileManager.default.attributesOfFileSystem(forPath: folder))?[.systemFreeSize] as? NSNumber else { return }
        if free.int64Value < minimumFreeBytes {
            throw .unavailable("the outbox's volume (\(folder)) has \(free.int64Value >> 20) MiB free, under the \(minimumFreeBytes >> 20) MiB reserve; free space there")
        }
    }

    private static func insertSignal(_ db: Database, workflowID: String, signalName: String, photoID: String, payload: String, time: TimeInterval) throws {
        try db.execute(
            sql: """
                INSERT INTO signal (photo_id, workflow_id, signal_name, payload, enqueued_at, age_from, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [photoID, workflowID, signalName, payload, time, time, time]
        )
    }
}
