import Crypto
import Foundation

extension IdempotentUpload {
    /// The SHA-256 of `answer`'s UTF-8 bytes, lowercase hex: what `answerDigest` holds.
    package static func digest(of answer: String) -> String {
        SHA256.hash(data: Data(answer.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether the stored answer is the one that was given, so it may be replayed: its digest
    /// matches when it has one; without one (a row stored before digests, or a store without the
    /// column) it must parse as an upload's answer, `{"photo_id": …, "validation": {"passed": …}}`,
    /// naming this row's photo.
    package var answerChecks: Bool {
        if let answerDigest { return answerDigest == Self.digest(of: answer) }
        guard let parsed = try? JSONDecoder().decode(AnswerShape.self, from: Data(answer.utf8)) else { return false }
        return parsed.photoID == photoID
    }

    /// This answer when it checks (`answerChecks`); else the outbox's refusal, so that an answer
    /// edited or damaged in `store` is never replayed as a 200.
    package func checked(in store: String) throws(OutboxError) -> IdempotentUpload {
        guard answerChecks else { throw .unavailable(uncheckedDescription(in: store)) }
        return self
    }

    /// Why this answer, stored in `store`, is not replayed.
    package func uncheckedDescription(in store: String) -> String {
        "the answer stored in \(store) for Idempotency-Key '\(key)' of project '\(projectID)' does not match "
            + (answerDigest == nil ? "the shape of an answer" : "the digest stored with it")
            + " (edited or damaged); it is not replayed: delete the row, or wait for the key's window to pass"
    }

    /// The parts of an upload's answer a stored one must have.
    private struct AnswerShape: Decodable {
        /// What the answer's `validation` must hold.
        struct Validation: Decodable {
            /// Whether the photo passed.
            let passed: Bool
        }

        /// The photo answered.
        let photoID: String
        /// The verdict.
        let validation: Validation

        enum CodingKeys: String, CodingKey {
            case photoID = "photo_id"
            case validation
        }
    }
}
