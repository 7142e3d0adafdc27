import Foundation

/// One promised signal in the outbox.
public struct OutboxEntry: Sendable, Equatable {
    /// Where a signal is in its life.
    public enum State: String, Sendable, Codable {
        /// Waiting for (another) delivery attempt.
        case pending
        /// Delivered to the target.
        case delivered
        /// Given up: rejected by the target or older than the maximum age.
        case dead
    }

    /// Row id.
    public let id: Int64
    /// The workflow to signal (the project id).
    public let workflowID: String
    /// The signal name.
    public let signalName: String
    /// The payload.
    public let photo: PhotoData
    /// The state.
    public let state: State
    /// Delivery attempts so far.
    public let attempts: Int
    /// When the signal was promised.
    public let enqueuedAt: Date
    /// Start of the maximum-age window (the promise, or a manual retry of a dead letter).
    public let ageFrom: Date
    /// The last delivery error, or nil.
    public let lastError: String?
    /// Why the signal was given up, for dead letters.
    public let deadReason: String?
    /// When it was delivered or given up, or nil.
    public let finishedAt: Date?
}
