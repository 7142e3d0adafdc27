import Foundation
import GRDB

/// One promised signal in the outbox: a row of its `signal` table, read as a GRDB record (the
/// payload column holds the `PhotoData` as JSON; times are seconds since 1970).
package struct OutboxEntry: Sendable, Equatable, Decodable, FetchableRecord {
    /// Where a signal is in its life.
    package enum State: String, Sendable, Codable {
        /// Waiting for (another) delivery attempt.
        case pending
        /// Delivered to the target.
        case delivered
        /// Given up: rejected by the target or older than the maximum age.
        case dead
    }

    /// Row id.
    package let id: Int64
    /// The workflow to signal (the project id).
    package let workflowID: String
    /// The signal name.
    package let signalName: String
    /// The payload.
    package let photo: PhotoData
    /// The state.
    package let state: State
    /// Delivery attempts so far.
    package let attempts: Int
    /// When the signal was promised.
    package let enqueuedAt: Date
    /// Start of the maximum-age window (the promise, or a manual retry of a dead letter).
    package let ageFrom: Date
    /// The last delivery error, or nil.
    package let lastError: String?
    /// Why the signal was given up, for dead letters.
    package let deadReason: String?
    /// When it was delivered or given up, or nil.
    package let finishedAt: Date?

    /// An entry from its parts (a store other than this outbox, such as the shared one, hands these out too).
    package init(id: Int64, workflowID: String, signalName: String, photo: PhotoData, state: State, attempts: Int, enqueuedAt: Date,
                ageFrom: Date, lastError: String?, deadReason: String?, finishedAt: Date?) {
        self.id = id
        self.workflowID = workflowID
        self.signalName = signalName
        self.photo = photo
        self.state = state
        self.attempts = attempts
        self.enqueuedAt = enqueuedAt
        self.ageFrom = ageFrom
        self.lastError = lastError
        self.deadReason = deadReason
        self.finishedAt = finishedAt
    }

    /// Times are stored as seconds since 1970.
    package static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }

    enum CodingKeys: String, CodingKey {
        case id, state, attempts
        case workflowID = "workflow_id"
        case signalName = "signal_name"
        case photo = "payload"
        case enqueuedAt = "enqueued_at"
        case ageFrom = "age_from"
        case lastError = "last_error"
        case deadReason = "dead_reason"
        case finishedAt = "finished_at"
    }
}
