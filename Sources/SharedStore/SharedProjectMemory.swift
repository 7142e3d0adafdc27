import Foundation
import Logging
import PostgresNIO
import SignalForwarding
import Synchronization

/// The fingerprints of each project's accepted photos in the shared store, so that every replica
/// compares a new photo with the photos any replica accepted: read by project id (an index),
/// bounded as `ProjectMemory` is (a project's newest `photosPerProject` within the retention
/// period; the byte budget over all at each `prune`), forgotten by any replica.
///
/// The fingerprint is stored as the opaque bytes its encoder produced and parsed here by `decode`:
/// no statement reads its layout. Parsed fingerprints are cached by their row's sequence
/// (`ParsedFingerprintCache`, within the byte budget), so a project read again costs the bytes of
/// its new photos only. Comparisons never run under a lock but for the few photos that
/// arrived since the caller compared: `remember` takes the project's transaction-scoped advisory
/// lock, compares with those (the caller's `compare`), and inserts, so two uploads of one photo
/// racing on two replicas cannot both be remembered, while other projects go on.
package final class SharedProjectMemory<Fingerprint: Sendable & Equatable>: Sendable {
    /// A remembered photo.
    package typealias Photo = ProjectMemory<Fingerprint>.Photo

    /// The bounds of the memory.
    package let limits: ProjectMemory<Fingerprint>.Limits
    private let store: SharedStore
    private let decode: @Sendable ([UInt8]) -> Fingerprint?
    private let cost: @Sendable (Fingerprint) -> Int
    private let onEvict: @Sendable ([EvictedPhoto]) -> Void
    private let logger: Logger
    private let cache: Mutex<ParsedFingerprintCache<Fingerprint>>

    /// The memory in `store` within `limits`: `decode` parses a stored fingerprint (nil for bytes
    /// that are not one, which are then skipped), `cost` is a parsed one's bytes against the budget,
    /// and `onEvict` hears of every photo the limits made it forget.
    package init(store: SharedStore, limits: ProjectMemory<Fingerprint>.Limits, logger: Logger,
                decode: @escaping @Sendable ([UInt8]) -> Fingerprint?, cost: @escaping @Sendable (Fingerprint) -> Int,
                onEvict: @escaping @Sendable ([EvictedPhoto]) -> Void = { _ in }) {
        self.store = store
        self.limits = limits
        self.logger = logger
        self.decode = decode
        self.cost = cost
        self.onEvict = onEvict
        cache = Mutex(ParsedFingerprintCache(budget: limits.totalBytes))
    }

    /// The photos of `projectID` an upload is compared with (its newest within the retention
    /// period, other than `photoID`, oldest first), and the generation to pass to `remember`.
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database cannot be read.
    package func photos(in projectID: String, besides photoID: String? = nil, now: Date = Date()) async throws -> (photos: [Photo], generation: UInt64) {
        let cutoff = now.timeIntervalSince1970 - limits.retention
        let limit = Int64(limits.photosPerProject)
        let logger = logger
        for attempt in 0..<2 {
            // A photo cached when the query left, and dropped from the cache before its answer was
            // read, has no bytes in the answer: read again, fetching every fingerprint.
            let known = attempt == 0 ? cache.withLock { $0.photos(of: projectID) } : [:]
            let sequences = known.keys.map { Int64(clamping: $0) }
            let read = try await store.read { connection in
                // One statement, one snapshot, one round trip. The generation is the newest sequence
                // read: a photo of the project committed later has a larger one (its insert took the
                // project's lock after every earlier one committed), and one not read is expired.
                var generation: Int64 = 0
                var photos: [Photo] = []
                var complete = true
                for try await row in try await connection.execute(
                    ProjectMemoryStatements.Newest(projectID: projectID, cutoff: cutoff, limit: limit, known: sequences), logger: logger) {
                    generation = max(generation, row.sequence)
                    if let bytes = row.fingerprint {
                        if let photo = self.photo((row.sequence, row.photoID, bytes, row.bytes, row.createdAt)) { photos.append(photo) }
                    } else if let photo = known[UInt64(row.sequence)] {
                        photos.append(photo)
                    } else {
                        complete = false
                    }
                }
                return (photos: photos, generation: UInt64(generation), complete: complete)
            }
            guard read.complete else { continue }
            let photos = read.photos.sorted { $0.sequence < $1.sequence }
            cache.withLock { $0.replace(projectID, with: photos) }
            return (photos.filter { $0.photoID != photoID }, read.generation)
        }
        throw SharedStoreError.unavailable("the shared store's photos of project \(projectID) changed while they were read twice")
    }

    /// Remembers `fingerprint` (its bytes `encoded`) as `photoID` of `projectID` unless a photo of
    /// the project remembered after `generation` (from `photos(in:)`) is the same photo by
    /// `compare`, which returns the earliest such photo's id. Under the project's lock, in one
    /// transaction with `alongside` (what is to be committed with the photo: its signal, its
    /// answer), so the photo is remembered exactly when they are.
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database fails (nothing is remembered
    ///   then), or what `compare` or `alongside` throw.
    package func remember(_ fingerprint: Fingerprint, encoded: [UInt8], photoID: String, in projectID: String, comparedUpTo generation: UInt64,
                         now: Date = Date(), compare: @escaping @Sendable ([Photo]) async throws -> String?,
                         alongside: @escaping @Sendable (PostgresConnection) async throws -> Void = { _ in }) async throws -> PhotoFingerprintStore.Remembered {
        let bytes = cost(fingerprint)
        guard bytes <= limits.totalBytes else { return .remembered(row: nil) }
        let cutoff = now.timeIntervalSince1970 - limits.retention
        let limit = Int64(limits.photosPerProject)
        let lockSpace = SharedStoreSchema.projectLockSpace
        let logger = logger
        let (result, evicted) = try await store.transaction { connection -> (PhotoFingerprintStore.Remembered, [EvictedPhoto]) in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockSpace), hashtext(\(projectID)))", logger: logger)
            var arrived: [Photo] = []
            for try await row in try await connection.execute(
                ProjectMemoryStatements.Arrived(projectID: projectID, photoID: photoID, after: Int64(clamping: generation), cutoff: cutoff),
                logger: logger) {
                if row.photoID == photoID {
                    return (self.photo(row)?.fingerprint == fingerprint ? .alreadyRemembered : .conflict, [])
                }
                if let photo = self.photo(row) { arrived.append(photo) }
            }
            // Comparing runs on the worker threads, in their queue: the database's time, not this, is bounded.
            if !arrived.isEmpty, let earlier = try await SharedStore.awayFromDatabase({ try await compare(arrived) }) {
                return (.duplicate(of: earlier), [])
            }
            let insert = ProjectMemoryStatements.Insert(projectID: projectID, photoID: photoID, fingerprint: ByteBuffer(bytes: encoded),
                                                        bytes: Int32(clamping: bytes), createdAt: now.timeIntervalSince1970, cutoff: cutoff, limit: limit)
            var evicted: [EvictedPhoto] = []
            for try await (trimmed, expired) in try await connection.execute(insert, logger: logger) {
                evicted.append(EvictedPhoto(projectID: projectID, photoID: trimmed, reason: expired ? .age : .projectFull))
            }
            try await alongside(connection)
            return (.remembered(row: nil), evicted)
        }
        if !evicted.isEmpty { onEvict(evicted) }
        return result
    }

    /// Forgets the photo `photoID` of `projectID`; returns whether it was remembered.
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database cannot be written.
    @discardableResult
    package func forget(photoID: String, in projectID: String) async throws -> Bool {
        let logger = logger
        return try await store.transaction { connection in
            let rows = try await connection.query(
                "DELETE FROM photo_validator.photo_fingerprint WHERE project_id = \(projectID) AND photo_id = \(photoID) RETURNING sequence",
                logger: logger)
            var deleted = false
            for try await _ in rows { deleted = true }
            return deleted
        }
    }

    /// Forgets every photo older than the retention period, then the oldest of all while the
    /// photos' bytes are over the budget; returns how many (the byte budget is kept here, not on
    /// each upload, so that uploads of different projects share no row).
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database cannot be written.
    @discardableResult
    package func prune(now: Date = Date()) async throws -> Int {
        let cutoff = now.timeIntervalSince1970 - limits.retention
        let budget = Int64(limits.totalBytes)
        let logger = logger
        let evicted = try await store.transaction { connection in
            var evicted: [EvictedPhoto] = []
            for try await (projectID, photoID) in try await connection.query(
                "DELETE FROM photo_validator.photo_fingerprint WHERE created_at < \(cutoff) RETURNING project_id, photo_id",
                logger: logger).decode((String, String).self) {
                evicted.append(EvictedPhoto(projectID: projectID, photoID: photoID, reason: .age))
            }
            for try await (projectID, photoID) in try await connection.query("""
                DELETE FROM photo_validator.photo_fingerprint WHERE sequence IN (
                    SELECT sequence FROM (SELECT sequence, SUM(bytes) OVER (ORDER BY sequence DESC) AS kept
                                          FROM photo_validator.photo_fingerprint) newest WHERE kept > \(budget))
                RETURNING project_id, photo_id
                """, logger: logger).decode((String, String).self) {
                evicted.append(EvictedPhoto(projectID: projectID, photoID: photoID, reason: .budget))
            }
            return evicted
        }
        if !evicted.isEmpty { onEvict(evicted) }
        return evicted.count
    }

    /// Photos remembered, their bytes, and the projects they belong to.
    ///
    /// - Throws: `SharedStoreError.unavailable` when the database cannot be read.
    package func usage() async throws -> (photos: Int, bytes: Int, projects: Int) {
        let logger = logger
        return try await store.transaction { connection in
            let rows = try await connection.query(
                "SELECT COUNT(*), COALESCE(SUM(bytes), 0)::bigint, COUNT(DISTINCT project_id) FROM photo_validator.photo_fingerprint",
                logger: logger)
            for try await (photos, bytes, projects) in rows.decode((Int, Int, Int).self) { return (photos, bytes, projects) }
            return (0, 0, 0)
        }
    }

    /// A row as a photo, or nil when its bytes are not a fingerprint this build reads.
    private func photo(_ row: ProjectMemoryStatements.Row) -> Photo? {
        guard let fingerprint = decode(Array(row.fingerprint.readableBytesView)) else {
            logger.debug("skipping an unreadable fingerprint in the shared store (photo \(row.photoID))")
            return nil
        }
        return Photo(photoID: row.photoID, fingerprint: fingerprint, rememberedAt: Date(timeIntervalSince1970: row.createdAt),
                     bytes: Int(row.bytes), sequence: UInt64(row.sequence))
    }
}
