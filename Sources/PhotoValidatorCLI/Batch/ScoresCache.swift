import Crypto
import Foundation
import GRDB
import PhotoValidation
import Synchronization

/// The scores cache of `validate --scores-cache` and `tune --scores-cache`: an SQLite file (WAL)
/// of each photo's measurements (`PhotoMeasurements`), keyed by the SHA-256 of its bytes and the
/// settings that shape what it measures (`ValidationSettings.measurementKey(for:)`), so a re-run
/// with other thresholds judges photos it has seen without decoding them.
final class ScoresCache: Sendable {
    /// How many photos were judged from the cache and how many were measured.
    struct Counts: Sendable, Equatable {
        /// Judged from kept measurements.
        var read = 0
        /// Decoded and measured (then kept, when deterministic).
        var measured = 0
        /// Measurements that could not be written (the run goes on without them).
        var unwritten = 0
    }

    /// The database file.
    let path: String
    private let database: DatabasePool
    private let tally = Mutex(Counts())
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// Opens (creating if needed) the cache at `path`.
    ///
    /// - Throws: `ScoresCacheError` (`scores_cache_unavailable`) when it cannot be opened or migrated.
    init(path: String) throws(ScoresCacheError) {
        self.path = path
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
            try migrator.migrate(database)
        } catch {
            throw ScoresCacheError(code: .unavailable, path: path, detail: "\(error)")
        }
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
    /// measurements when the cache has some that decide at its thresholds, else measured by
    /// `validator` (decoding it) and kept.
    func validate(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, with validator: PhotoValidator) -> ValidatePhotoOutput {
        let hash = Self.contentHash(bytes)
        let key = validator.settings.measurementKey(for: photoType)
        if let kept = measurements(hash: hash, settings: key), let output = validator.judge(kept, as: photoType) {
            tally.withLock { $0.read += 1 }
            return output
        }
        let measured = validator.measure(bytes, as: photoType)
        tally.withLock { $0.measured += 1 }
        if let measurements = measured.measurements, !store(measurements, hash: hash, settings: key) {
            tally.withLock { $0.unwritten += 1 }
        }
        return measured.output
    }

    /// The measurements kept for the photo with content `hash` under `settings`, if any.
    func measurements(hash: String, settings: String) -> PhotoMeasurements? {
        let text = try? database.read { db in
            try String.fetchOne(db, sql: "SELECT measurements FROM measurement WHERE content_sha256 = ? AND settings = ?", arguments: [hash, settings])
        }
        return text.flatMap { try? decoder.decode(PhotoMeasurements.self, from: Data($0.utf8)) }
    }

    /// Keeps `measurements` for the photo with content `hash` under `settings`, replacing what was
    /// kept (a re-measure under a higher threshold holds more); false when it could not be written.
    @discardableResult
    func store(_ measurements: PhotoMeasurements, hash: String, settings: String) -> Bool {
        guard let json = try? encoder.encode(measurements) else { return false }
        let text = String(decoding: json, as: UTF8.self)
        return (try? database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO measurement (content_sha256, settings, measurements, measured_at) VALUES (?, ?, ?, ?)",
                arguments: [hash, settings, text, Date().timeIntervalSince1970]
            )
        }) != nil
    }

    /// Closes the database, folding the write-ahead log into the file, so that the file alone holds
    /// every measurement (a batch recipe copies it back from node-local disk).
    func close() {
        // GRDB keeps the WAL file of a pool (persistent WAL), so closing alone leaves measurements in it.
        _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try? database.close()
    }

    /// `scores cache PATH: N read, M measured` for the end of a run.
    var summaryLine: String {
        let counts = counts
        return "scores cache \(path): \(counts.read) read, \(counts.measured) measured"
            + (counts.unwritten > 0 ? ", \(counts.unwritten) could not be written" : "")
    }
}
