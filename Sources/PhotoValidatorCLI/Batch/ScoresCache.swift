import Crypto
import Foundation
import GRDB
import PhotoValidation
import Synchronization

/// The scores cache of `validate --scores-cache` and `tune --scores-cache`: an SQLite file (WAL)
/// of each photo's measurements (`PhotoMeasurements`), keyed by the SHA-256 of its bytes and the
/// settings that shape what it measures (`ValidationSettings.measurementKey(for:)`), so a re-run
/// with other thresholds judges photos it has seen without decoding them.
///
/// The file is not trusted: each row carries an HMAC-SHA256 of the content hash, the settings
/// and the measurements under a key kept outside it (`ScoresCacheKey`), and every field is
/// bounded before anything is read (`ScoresCache+Verification.swift`). A row that is too large
/// or does not verify is never decoded: the photo is measured again and the row replaced.
final class ScoresCache: Sendable {
    /// How many photos were judged from the cache and how many were measured.
    struct Counts: Sendable, Equatable {
        /// Judged from kept measurements.
        var read = 0
        /// Decoded and measured (then kept, when deterministic), the two counts below included.
        var measured = 0
        /// Measurements that could not be written (the run goes on without them).
        var unwritten = 0
        /// Measured again because their row failed verification: too large, or its checksum did
        /// not match (edited, or signed with another key).
        var rejected = 0
    }

    /// What the cache holds for one photo under one settings key.
    enum Lookup: Sendable, Equatable {
        /// No row.
        case missing
        /// A row that verified, decoded.
        case kept(PhotoMeasurements)
        /// A row that is too large, or whose checksum is missing or does not match; not read.
        case rejected
    }

    /// The database file.
    let path: String
    /// The key rows are signed with.
    let key: ScoresCacheKey
    /// The database (internal for the tests, which edit rows as an attacker would).
    let database: DatabasePool
    /// The unsigned rows of an earlier build's cache dropped when this one opened it (their photos
    /// are measured again).
    let droppedUnsignedRows: Int
    private let tally = Mutex(Counts())

    /// Opens (creating if needed) the cache at `path`, whose rows are signed with `key`. A cache of
    /// an earlier build is migrated: its rows, unsigned, are dropped and their photos measured again.
    ///
    /// - Throws: `ScoresCacheError` (`scores_cache_unavailable`) when it cannot be opened or migrated.
    init(path: String, key: ScoresCacheKey) throws(ScoresCacheError) {
        self.path = path
        self.key = key
        let dropped = Mutex(0)
        do {
            var configuration = Configuration()
            // Shards of one array job may share the file on one machine; a writer waits its turn.
            configuration.busyMode = .timeout(10)
            database = try DatabasePool(path: path, configuration: configuration)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("create measurement") { db in
                try db.execute(sql: """
                    CREATE TABLE measurement (
                        content_sha256 TEXT NOT NULL,
                        settings TEXT NOT NULL,
                        measurements TEXT NOT NULL,
                        measured_at DOUBLE NOT NULL,
                        PRIMARY KEY (content_sha256, settings)
                    ) WITHOUT ROWID;
                    """)
            }
            migrator.registerMigration("signed measurement") { db in
                // The earlier table cannot be read safely: WITHOUT ROWID, a lookup compares whole
                // records, so SQLite loads a row entirely (400 MB for a 400 MB row) before any size
                // could be read. Its rows are unsigned, so none could be trusted anyway: counting
                // them reads no record; dropping them frees their pages.
                dropped.withLock { $0 = (try? Int.fetchOne(db, sql: "SELECT count(*) FROM measurement")) ?? 0 }
                try db.execute(sql: """
                    DROP TABLE measurement;
                    CREATE TABLE measurement (
                        id INTEGER PRIMARY KEY,
                        content_sha256 TEXT NOT NULL,
                        settings TEXT NOT NULL,
                        checksum BLOB NOT NULL,
                        measured_at DOUBLE NOT NULL,
                        measurements BLOB NOT NULL,
                        UNIQUE (content_sha256, settings)
                    );
                    """)
            }
            try migrator.migrate(database)
        } catch {
            throw ScoresCacheError(code: .unavailable, path: path, detail: "\(error)")
        }
        droppedUnsignedRows = dropped.withLock { $0 }
    }

    /// The photos judged from the cache and measured so far.
    var counts: Counts { tally.withLock { $0 } }

    /// The lowercase hex SHA-256 of `bytes`: a photo's identity in the cache, whatever its path.
    static func contentHash(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The answer for the photo in `bytes` as `photoType`: judged by `validator` from kept
    /// measurements when the cache has a verified row that decides at its thresholds, else
    /// measured by `validator` (decoding it) and kept, replacing a row that failed verification.
    /// With `fingerprint`, a kept row without the photo's fingerprint (measured by a run that
    /// read none) does not decide: the photo is measured again, with it, by `deadline` when one is given.
    func validate(
        _ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, with validator: PhotoValidator, fingerprint: Bool = true, deadline: ContinuousClock.Instant? = nil
    ) -> ValidatePhotoOutput {
        let hash = Self.contentHash(bytes)
        let key = validator.settings.measurementKey(for: photoType)
        let found = lookup(hash: hash, settings: key)
        if case .kept(let kept) = found, !fingerprint || kept.first == nil || kept.first?.fingerprint != nil,
           let output = validator.judge(kept, as: photoType) {
            tally.withLock { $0.read += 1 }
            return output
        }
        let measured = validator.measure(bytes, as: photoType, fingerprint: fingerprint, deadline: deadline)
        tally.withLock { counts in
            counts.measured += 1
            if found == .rejected { counts.rejected += 1 }
        }
        if let measurements = measured.measurements {
            if !store(measurements, hash: hash, settings: key) { tally.withLock { $0.unwritten += 1 } }
        } else if found == .rejected {
            // Nothing to replace it with (a failure another attempt may not repeat): a row that is
            // never read is not kept either.
            forget(hash: hash, settings: key)
        }
        return measured.output
    }

    /// The verified measurements kept for the photo with content `hash` under `settings`, if any.
    func measurements(hash: String, settings: String) -> PhotoMeasurements? {
        if case .kept(let kept) = lookup(hash: hash, settings: settings) { return kept }
        return nil
    }

    /// Keeps `measurements` for the photo with content `hash` under `settings`, signed, replacing
    /// what was kept (a re-measure under a higher threshold holds more); false when it could not
    /// be written, or would be over the size a read accepts.
    @discardableResult
    func store(_ measurements: PhotoMeasurements, hash: String, settings: String) -> Bool {
        guard let json = try? Self.encoder.encode(measurements), json.count <= Self.maximumMeasurementsBytes else { return false }
        let checksum = Data(self.checksum(hash: hash, settings: settings, measurements: json))
        return (try? database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO measurement (content_sha256, settings, measurements, measured_at, checksum) VALUES (?, ?, ?, ?, ?)",
                arguments: [hash, settings, json, Date().timeIntervalSince1970, checksum]
            )
        }) != nil
    }

    /// Deletes the row of the photo with content `hash` under `settings`, if any.
    private func forget(hash: String, settings: String) {
        _ = try? database.write { db in
            try db.execute(sql: "DELETE FROM measurement WHERE content_sha256 = ? AND settings = ?", arguments: [hash, settings])
        }
    }

    /// Closes the database, folding the write-ahead log into the file, so that the file alone holds
    /// every measurement (a batch recipe copies it back from node-local disk).
    func close() {
        // GRDB keeps the WAL file of a pool (persistent WAL), so closing alone leaves measurements in it.
        _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try? database.close()
    }

    /// `scores cache PATH: N read, M measured` for the end of a run, with the photos measured again
    /// because their row failed verification, and the rows of an earlier build dropped.
    var summaryLine: String {
        let counts = counts
        return "scores cache \(path): \(counts.read) read, \(counts.measured) measured"
            + (counts.rejected > 0 ? " (\(counts.rejected) re-measured: rows failed verification)" : "")
            + (counts.unwritten > 0 ? ", \(counts.unwritten) could not be written" : "")
            + (droppedUnsignedRows > 0 ? "; \(droppedUnsignedRows) unsigned rows of an earlier build dropped (measured again)" : "")
    }
}
