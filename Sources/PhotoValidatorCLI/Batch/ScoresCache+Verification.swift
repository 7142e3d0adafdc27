import Crypto
import Foundation
import GRDB
import LumaAnalysis
import PhotoValidation

extension ScoresCache {
    /// The longest base64 text of a fingerprint (`PlaneFigures.fingerprint`): the longest any
    /// photo's fingerprint can be (`PhotoFingerprint.maximumEncodedBytes`, both sides of its
    /// thumbnail and its keypoints bounded).
    static let maximumFingerprintCharacters = PhotoFingerprint.maximumEncodedBytes

    /// The largest `measurements` a row may hold, in bytes: two decodes' figures, each with a
    /// fingerprint of at most `maximumFingerprintCharacters` (written without escaping `/`), and
    /// 64 KiB for every other field (numbers, the format, an error's explanation).
    static let maximumMeasurementsBytes = 2 * maximumFingerprintCharacters + (64 << 10)

    /// The length of a row's checksum, an HMAC-SHA256.
    static let checksumBytes = 32

    /// The encoder of stored measurements: `/` unescaped, so a fingerprint's base64 is never longer
    /// in the row than `maximumFingerprintCharacters`.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }

    /// The row's checksum: the HMAC-SHA256 under `key` of a domain tag, then the content hash, the
    /// settings and the measurements' bytes, each after its length as 8 little-endian bytes, so no
    /// two different rows are signed as one.
    func checksum(hash: String, settings: String, measurements: Data) -> HashedAuthenticationCode<SHA256> {
        var mac = HMAC<SHA256>(key: key.key)
        mac.update(data: Data("photo-validator scores cache row v1".utf8))
        for field in [Data(hash.utf8), Data(settings.utf8), measurements] {
            withUnsafeBytes(of: UInt64(field.count).littleEndian) { mac.update(data: $0) }
            mac.update(data: field)
        }
        return mac.finalize()
    }

    /// What the cache holds for the photo with content `hash` under `settings`. The sizes of the
    /// checksum and the measurements are read first, without loading either: the row is found by
    /// its rowid through the key's index, SQLite's `length` of a BLOB reads the record header only,
    /// and the measurements are the record's last field, so nothing after them is walked to (a
    /// TEXT value, which only an edit writes, is refused by its type alone). A row within bounds is
    /// loaded and its checksum checked before the measurements are decoded, and the decoded
    /// fingerprints are bounded too. The content hash and settings need no bound: the row matched
    /// them, so they are this run's.
    func lookup(hash: String, settings: String) -> Lookup {
        let found: Lookup? = try? database.read { db -> Lookup in
            guard let sizes = try Row.fetchOne(db, sql: """
                SELECT id,
                       CASE typeof(checksum) WHEN 'blob' THEN length(checksum) END AS checksum_size,
                       CASE typeof(measurements) WHEN 'blob' THEN length(measurements) END AS measurements_size
                FROM measurement WHERE content_sha256 = ? AND settings = ?
                """, arguments: [hash, settings]) else { return .missing }
            guard let id = sizes["id"] as Int64?,
                  let checksumSize = sizes["checksum_size"] as Int?, checksumSize == Self.checksumBytes,
                  let measurementsSize = sizes["measurements_size"] as Int?, measurementsSize <= Self.maximumMeasurementsBytes,
                  let row = try Row.fetchOne(db, sql: "SELECT checksum, measurements FROM measurement WHERE id = ?", arguments: [id]),
                  let stored = row["checksum"] as Data?, let measurements = row["measurements"] as Data?,
                  checksum(hash: hash, settings: settings, measurements: measurements) == stored else { return .rejected }
            guard let decoded = try? JSONDecoder().decode(PhotoMeasurements.self, from: measurements),
                  [decoded.first, decoded.second].allSatisfy({ ($0?.fingerprint?.utf8.count ?? 0) <= Self.maximumFingerprintCharacters })
            else { return .rejected }
            return .kept(decoded)
        }
        // A file that cannot be read now is measured as if the row were missing.
        return found ?? .missing
    }
}
