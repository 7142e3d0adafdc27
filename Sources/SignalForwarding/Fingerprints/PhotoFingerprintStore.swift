import Foundation
import GRDB

/// The fingerprints of each project's accepted photos, for the duplicate check: in the outbox's
/// SQLite database when forwarding is on, so they outlive a restart, else in memory.
public final class PhotoFingerprintStore: Sendable {
    /// How long an accepted photo's fingerprint is remembered (by default the workflow's
    /// abandonment timeout, 48 h).
    public let retention: TimeInterval
    private let database: any DatabaseWriter

    /// A store kept in memory only: what a daemon without an outbox remembers until it stops.
    ///
    /// - Throws: `OutboxError.unavailable` when SQLite cannot open it.
    public convenience init(retention: TimeInterval) throws(OutboxError) {
        do {
            try self.init(database: try DatabaseQueue(), retention: retention)
        } catch {
            throw .unavailable("cannot open the in-memory fingerprint store: \(error)")
        }
    }

    /// A store in `database`, creating its table when missing.
    init(database: any DatabaseWriter, retention: TimeInterval) throws {
        self.database = database
        self.retention = retention
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS photo_fingerprint (
                    project_id TEXT NOT NULL,
                    photo_id TEXT NOT NULL,
                    fingerprint TEXT NOT NULL,
                    created_at DOUBLE NOT NULL,
                    PRIMARY KEY (project_id, photo_id)
                );
                CREATE INDEX IF NOT EXISTS photo_fingerprint_age ON photo_fingerprint(created_at);
                """)
        }
    }

    /// The id of the earliest photo of `projectID` remembered within the retention period for
    /// which `isSame` holds, other than `photoID`; nil when there is none.
    ///
    /// - Throws: `OutboxError.unavailable` when the store cannot be read.
    public func earlierPhoto(in projectID: String, besides photoID: String? = nil, now: Date = Date(),
                             isSame: @escaping @Sendable (String) -> Bool) async throws(OutboxError) -> String? {
        let retention = retention
        do {
            return try await database.read { db in
                try Self.firstMatch(in: db, projectID: projectID, besides: photoID, since: now.timeIntervalSince1970 - retention, isSame: isSame)
            }
        } catch {
            throw .unavailable("cannot read the fingerprint store: \(error)")
        }
    }

    /// Remembers `fingerprint` for `photoID` of `projectID`, unless, checked in the same
    /// transaction, another photo of the project for which `isSame` holds was remembered first:
    /// then nothing is written and that photo's id is returned (two uploads of one photo at once
    /// cannot both be accepted).
    ///
    /// - Throws: `OutboxError.unavailable` when the store cannot be written.
    public func remember(_ fingerprint: String, photoID: String, in projectID: String, now: Date = Date(),
                         isSame: @escaping @Sendable (String) -> Bool) async throws(OutboxError) -> String? {
        let time = now.timeIntervalSince1970
        let retention = retention
        do {
            return try await database.write { db in
                if let earlier = try Self.firstMatch(in: db, projectID: projectID, besides: photoID, since: time - retention, isSame: isSame) {
                    return earlier
                }
                try db.execute(sql: "INSERT OR REPLACE INTO photo_fingerprint (project_id, photo_id, fingerprint, created_at) VALUES (?, ?, ?, ?)",
                               arguments: [projectID, photoID, fingerprint, time])
                return nil
            }
        } catch {
            throw .unavailable("cannot write to the fingerprint store: \(error)")
        }
    }

    /// Forgets the photo `photoID` of `projectID`; returns whether it was remembered.
    ///
    /// - Throws: `OutboxError.unavailable` when the store cannot be written.
    @discardableResult
    public func forget(photoID: String, in projectID: String) async throws(OutboxError) -> Bool {
        do {
            return try await database.write { db in
                try db.execute(sql: "DELETE FROM photo_fingerprint WHERE project_id = ? AND photo_id = ?", arguments: [projectID, photoID])
                return db.changesCount > 0
            }
        } catch {
            throw .unavailable("cannot write to the fingerprint store: \(error)")
        }
    }

    /// Forgets fingerprints older than the retention period; returns how many.
    @discardableResult
    public func prune(now: Date = Date()) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM photo_fingerprint WHERE created_at < ?", arguments: [now.timeIntervalSince1970 - self.retention])
            return db.changesCount
        }
    }

    /// How many of a project's newest photos an upload is compared with. A design project holds a
    /// few room photos and up to three inspiration photos; a client that adds hundreds to one
    /// project cannot make each further upload cost more than this many comparisons.
    public static let comparedPhotos = 64

    /// The earliest photo of `projectID` remembered since `cutoff`, among its `comparedPhotos`
    /// newest and other than `photoID`, whose fingerprint `isSame` accepts.
    private static func firstMatch(in db: Database, projectID: String, besides photoID: String?, since cutoff: TimeInterval,
                                   isSame: (String) -> Bool) throws -> String? {
        let rows = try Row.fetchCursor(db, sql: """
            SELECT photo_id, fingerprint FROM (
                SELECT photo_id, fingerprint, created_at FROM photo_fingerprint WHERE project_id = ? AND created_at >= ?
                ORDER BY created_at DESC, photo_id DESC LIMIT ?
            ) ORDER BY created_at, photo_id
            """, arguments: [projectID, cutoff, comparedPhotos])
        while let row = try rows.next() {
            let id: String = row["photo_id"]
            if id != photoID, isSame(row["fingerprint"]) { return id }
        }
        return nil
    }
}
