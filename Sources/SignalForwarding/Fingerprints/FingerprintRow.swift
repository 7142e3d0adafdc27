import Foundation
import GRDB

/// A photo `PhotoFingerprintStore.remember` kept, as it is to be written to the database: in the
/// transaction that promises the photo's signal and stores its idempotent answer, so that either
/// all of them are on disk or none is.
package struct FingerprintRow: Sendable, Equatable {
    /// The photo's project.
    package let projectID: String
    /// The photo.
    package let photoID: String
    /// The fingerprint as stored: its bytes (`PhotoFingerprint.bytes`, the version first), a BLOB.
    package let fingerprint: Data
    /// When it was accepted.
    package let createdAt: Date
    /// Its sequence in the memory, so a withdrawal takes back this photo and no later one of the same id.
    let sequence: UInt64
    /// Photos the memory's limits evicted to make room; their rows go in the same transaction.
    package let evicted: [EvictedPhoto]

    /// A row from its parts.
    init(projectID: String, photoID: String, fingerprint: Data, createdAt: Date, sequence: UInt64, evicted: [EvictedPhoto]) {
        self.projectID = projectID
        self.photoID = photoID
        self.fingerprint = fingerprint
        self.createdAt = createdAt
        self.sequence = sequence
        self.evicted = evicted
    }

    /// Inserts the row and deletes the evicted photos' rows.
    func write(_ db: Database) throws {
        for photo in evicted {
            try PhotoFingerprintStore.deleteRow(db, projectID: photo.projectID, photoID: photo.photoID)
        }
        try db.execute(sql: "INSERT OR REPLACE INTO photo_fingerprint (project_id, photo_id, fingerprint, created_at) VALUES (?, ?, ?, ?)",
                       arguments: [projectID, photoID, fingerprint, createdAt.timeIntervalSince1970])
    }
}
