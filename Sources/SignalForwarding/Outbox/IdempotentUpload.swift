import Foundation

/// The answer given to an upload that carried an `Idempotency-Key`, kept so a repeat of the same
/// upload gets the same answer and promises no second signal.
public struct IdempotentUpload: Sendable, Equatable {
    /// The workflow (project) the upload was for; keys are scoped to it.
    public let projectID: String
    /// The client's idempotency key.
    public let key: String
    /// A digest of what the upload sent, to tell a true repeat from a reused key.
    public let requestDigest: String
    /// The `photo_id` answered.
    public let photoID: String
    /// The JSON body answered.
    public let answer: String
    /// When the answer was first given.
    public let createdAt: Date

    /// Creates a stored answer.
    public init(projectID: String, key: String, requestDigest: String, photoID: String, answer: String, createdAt: Date = Date()) {
        self.projectID = projectID
        self.key = key
        self.requestDigest = requestDigest
        self.photoID = photoID
        self.answer = answer
        self.createdAt = createdAt
    }
}
