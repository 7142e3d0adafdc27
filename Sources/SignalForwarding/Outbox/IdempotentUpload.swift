import Foundation
import GRDB

/// The answer given to an upload that carried an `Idempotency-Key`, kept so a repeat of the same
/// upload gets the same answer and promises no second signal: a row of the `idempotent_upload`
/// table, read and written as a GRDB record.
package struct IdempotentUpload: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    /// The workflow (project) the upload was for; keys are scoped to it.
    package let projectID: String
    /// The client's idempotency key.
    package let key: String
    /// A digest of what the upload sent, to tell a true repeat from a reused key.
    package let requestDigest: String
    /// The `photo_id` answered.
    package let photoID: String
    /// The JSON body answered.
    package let answer: String
    /// When the answer was first given.
    package let createdAt: Date
    /// The SHA-256 of `answer` (lowercase hex) when it was stored, checked before a replay
    /// (`checked(in:)`); nil for a row stored before answers had one, or by a store without the column.
    package let answerDigest: String?

    /// Creates an answer to store, with its digest.
    package init(projectID: String, key: String, requestDigest: String, photoID: String, answer: String, createdAt: Date = Date()) {
        self.init(projectID: projectID, key: key, requestDigest: requestDigest, photoID: photoID, answer: answer, createdAt: createdAt,
                  answerDigest: Self.digest(of: answer))
    }

    /// An answer as a store read it, with the digest stored beside it, if any.
    package init(projectID: String, key: String, requestDigest: String, photoID: String, answer: String, createdAt: Date, answerDigest: String?) {
        self.projectID = projectID
        self.key = key
        self.requestDigest = requestDigest
        self.photoID = photoID
        self.answer = answer
        self.createdAt = createdAt
        self.answerDigest = answerDigest
    }

    /// The table.
    package static let databaseTableName = "idempotent_upload"
    /// Times are stored as seconds since 1970.
    package static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    /// Times are stored as seconds since 1970.
    package static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }

    enum CodingKeys: String, CodingKey {
        case key, answer
        case projectID = "project_id"
        case requestDigest = "request_digest"
        case photoID = "photo_id"
        case createdAt = "created_at"
        case answerDigest = "answer_digest"
    }
}
