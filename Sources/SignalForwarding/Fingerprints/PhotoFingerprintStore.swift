import Foundation
import GRDB
import LumaAnalysis
import Synchronization

/// The fingerprints of each project's accepted photos, for the duplicate check: parsed once and
/// kept in memory within a per-project count and a total byte budget (`ProjectMemory`), and, when
/// forwarding is on, mirrored in the outbox's SQLite database so they outlive a restart.
///
/// Comparisons never run under the store's lock nor in a database transaction: a caller takes the
/// project's photos (`photos(in:besides:)`), compares them wherever its work is admitted, and
/// `remember` compares only with what arrived meanwhile before it keeps the new photo.
package final class PhotoFingerprintStore: Sendable {
    /// A remembered photo.
    package typealias Photo = ProjectMemory<PhotoFingerprint>.Photo

    /// The bounds of the memory.
    package var limits: ProjectMemory<PhotoFingerprint>.Limits { memory.withLock { $0.limits } }
    private let memory: Mutex<ProjectMemory<PhotoFingerprint>>
    private let database: (any DatabaseWriter)?
    private let onEvict: @Sendable ([EvictedPhoto]) -> Void

    /// A store kept in memory only: what a daemon without an outbox remembers until it stops.
    /// `onEvict` hears of every photo the limits made it forget.
    package init(limits: ProjectMemory<PhotoFingerprint>.Limits, onEvict: @escaping @Sendable ([EvictedPhoto]) -> Void = { _ in }) {
        memory = Mutex(ProjectMemory(limits: limits))
        database = nil
        self.onEvict = onEvict
    }

    /// A store mirrored in `database`: creates its table when missing and loads the photos within
    /// the retention period, oldest first, so the limits keep the newest; rows that are not a
    /// fingerprint of this version (or are larger than any fingerprint) are deleted, not loaded:
    /// among them the base64 text rows of version 2 (before fingerprints were at most 8 KB), whose
    /// features cannot be cut down to this version's faithfully.
    init(database: any DatabaseWriter, limits: ProjectMemory<PhotoFingerprint>.Limits, now: Date = Date(),
         onEvict: @escaping @Sendable ([EvictedPhoto]) -> Void = { _ in }) throws {
        self.database = database
        self.onEvict = onEvict
        var loaded = ProjectMemory<PhotoFingerprint>(limits: limits)
        let cutoff = now.timeIntervalSince1970 - limits.retention
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
            try db.execute(sql: "DELETE FROM photo_fingerprint WHERE created_at < ? OR typeof(fingerprint) != 'blob' OR length(fingerprint) > ?",
                           arguments: [cutoff, PhotoFingerprint.maximumByteCount])
            var unreadable: [(String, String)] = []
            var evicted: [EvictedPhoto] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT project_id, photo_id, fingerprint, created_at FROM photo_fingerprint ORDER BY created_at, rowid")
            while let row = try rows.next() {
                let projectID: String = row["project_id"], photoID: String = row["photo_id"]
                guard let data = row["fingerprint"] as Data?, let fingerprint = PhotoFingerprint(bytes: [UInt8](data)) else {
                    unreadable.append((projectID, photoID))
                    continue
                }
                let time = Date(timeIntervalSince1970: row["created_at"])
                evicted += loaded.remember(fingerprint, bytes: fingerprint.memoryBytes, photoID: photoID, in: projectID, at: time).evicted
            }
            for (projectID, photoID) in unreadable + evicted.map({ ($0.projectID, $0.photoID) }) {
                try Self.deleteRow(db, projectID: projectID, photoID: photoID)
            }
        }
        memory = Mutex(loaded)
    }

    /// Photos remembered, their bytes, and the projects they belong to.
    package var usage: (photos: Int, bytes: Int, projects: Int) {
        memory.withLock { ($0.count, $0.totalBytes, $0.projectCount) }
    }

    /// The photos of `projectID` an upload is compared with (its newest within the retention
    /// period, other than `photoID`, oldest first), and the generation to pass to `remember`.
    package func photos(in projectID: String, besides photoID: String? = nil, now: Date = Date()) -> (photos: [Photo], generation: UInt64) {
        memory.withLock { ($0.photos(of: projectID, besides: photoID, now: now), $0.generation) }
    }

    /// What `remember` did.
    package enum Remembered: Sendable, Equatable {
        /// The photo is remembered; `row` is to be written to the database in the transaction that
        /// promises its signal (nil for a store kept in memory only).
        case remembered(row: FingerprintRow?)
        /// Another photo of the project, remembered meanwhile, is the same photo: nothing was kept.
        case duplicate(of: String)
        /// The project already has this photo under this id: nothing changed.
        case alreadyRemembered
        /// The project has another photo under this id: nothing changed.
        case conflict
    }

    /// Remembers `fingerprint` as `photoID` of `projectID` unless a photo of
    /// the project remembered after `generation` (from `photos(in:)`, which the caller compared
    /// with) is the same photo by `compare`, which returns the earliest such photo's id. `compare`
    /// runs outside the lock, on just the photos that arrived since it last ran, as many times as
    /// photos keep arriving; two uploads of one photo at once cannot both be remembered.
    package func remember(_ fingerprint: PhotoFingerprint, photoID: String, in projectID: String,
                         comparedUpTo generation: UInt64, now: Date = Date(),
                         compare: ([Photo]) async throws -> String?) async rethrows -> Remembered {
        var seen = generation
        while true {
            enum Step { case done(Remembered, [EvictedPhoto]), compare([Photo], UInt64) }
            let step: Step = memory.withLock { memory in
                if let existing = memory.photo(photoID, of: projectID) {
                    return .done(existing.fingerprint == fingerprint ? .alreadyRemembered : .conflict, [])
                }
                let arrived = memory.photos(of: projectID, after: seen, besides: photoID, now: now)
                guard arrived.isEmpty else { return .compare(arrived, memory.generation) }
                let kept = memory.remember(fingerprint, bytes: fingerprint.memoryBytes, photoID: photoID, in: projectID, at: now)
                let row = database == nil ? nil : FingerprintRow(
                    projectID: projectID, photoID: photoID, fingerprint: Data(fingerprint.bytes), createdAt: now,
                    sequence: kept.photo?.sequence ?? 0, evicted: kept.evicted
                )
                return .done(.remembered(row: kept.photo == nil ? nil : row), kept.evicted)
            }
            switch step {
            case .done(let result, let evicted):
                if !evicted.isEmpty { onEvict(evicted) }
                return result
            case .compare(let arrived, let newest):
                if let earlier = try await compare(arrived) { return .duplicate(of: earlier) }
                seen = newest
            }
        }
    }

    /// Takes back a photo `remember` kept when its row could not be written (nothing was promised):
    /// a retry of the photo must not be its own duplicate.
    package func withdraw(_ row: FingerprintRow) {
        memory.withLock { memory in
            if memory.photo(row.photoID, of: row.projectID)?.sequence == row.sequence {
                _ = memory.forget(row.photoID, of: row.projectID)
            }
        }
    }

    /// Writes `row` in its own transaction (a photo remembered without a signal); nothing to do
    /// for a store in memory only. On failure the photo is withdrawn.
    ///
    /// - Throws: `OutboxError.unavailable` when the database cannot be written.
    package func persist(_ row: FingerprintRow?) async throws(OutboxError) {
        guard let row, let database else { return }
        do {
            try await database.write { db in try row.write(db) }
        } catch {
            withdraw(row)
            throw .unavailable("cannot write to the fingerprint store: \(error)")
        }
    }

    /// Forgets the photo `photoID` of `projectID`; returns whether it was remembered.
    ///
    /// - Throws: `OutboxError.unavailable` when the database cannot be written.
    @discardableResult
    package func forget(photoID: String, in projectID: String) async throws(OutboxError) -> Bool {
        let forgotten = memory.withLock { $0.forget(photoID, of: projectID) != nil }
        guard let database else { return forgotten }
        do {
            let deleted = try await database.write { db in
                try Self.deleteRow(db, projectID: projectID, photoID: photoID)
                return db.changesCount > 0
            }
            return forgotten || deleted
        } catch {
            throw .unavailable("cannot write to the fingerprint store: \(error)")
        }
    }

    /// Forgets fingerprints older than the retention period; returns how many.
    @discardableResult
    package func prune(now: Date = Date()) async throws -> Int {
        let evicted = memory.withLock { $0.prune(now: now) }
        if !evicted.isEmpty { onEvict(evicted) }
        if let database {
            let retention = limits.retention
            try await database.write { db in
                try db.execute(sql: "DELETE FROM photo_fingerprint WHERE created_at < ?", arguments: [now.timeIntervalSince1970 - retention])
            }
        }
        return evicted.count
    }

    /// Deletes one photo's row.
    static func deleteRow(_ db: Database, projectID: String, photoID: String) throws {
        try db.execute(sql: "DELETE FROM photo_fingerprint WHERE project_id = ? AND photo_id = ?", arguments: [projectID, photoID])
    }
}
