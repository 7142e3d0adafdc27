import Foundation

/// Where promised signals wait for delivery: a replica's own SQLite outbox (`SignalOutbox`) or
/// the queue replicas share (`SharedOutbox`). `SignalDeliveryService` delivers from either, and
/// the admin view reads either.
package protocol SignalQueue: Sendable {
    /// Where the queue is, for logs and the admin view (a path or a database without its password).
    var location: String { get }
    /// Pending signals due at `now` that this replica is to attempt now, oldest first; each must
    /// end with `markDelivered`, `scheduleRetry` or `markDead`.
    func dueSignals(now: Date) async throws -> [OutboxEntry]
    /// When the next pending signal is due, or nil when none is pending.
    func nextDueDate() async throws -> Date?
    /// Records a successful delivery.
    func markDelivered(_ id: Int64, now: Date) async throws
    /// Records a failed attempt and when to try again.
    func scheduleRetry(_ id: Int64, at next: Date, error: String) async throws
    /// Gives a signal up, with the reason.
    func markDead(_ id: Int64, reason: String, now: Date) async throws
    /// Forgets delivered signals a day old and answers to keyed uploads past their window.
    func pruneFinished(now: Date) async throws
    /// Counts by state and the age of the oldest pending signal.
    func counts(now: Date) async throws -> OutboxCounts
    /// The most recent dead letters, newest first.
    func deadLetters(limit: Int) async throws -> [OutboxEntry]
    /// Puts dead letters back in the queue (all, or the one for `photoID`); returns how many.
    func retryDeadLetters(photoID: String?, now: Date) async throws -> Int
}

extension SignalOutbox: SignalQueue {
    /// The SQLite file's path.
    package var location: String { path }

    /// `due(now:)`: every due signal, since only this replica reads this file.
    package func dueSignals(now: Date) async throws -> [OutboxEntry] {
        try await due(now: now)
    }

    /// Deletes delivered signals finished a day ago and answers past the idempotency window.
    package func pruneFinished(now: Date) async throws {
        try await pruneDelivered(before: now.addingTimeInterval(-86_400))
        try await pruneIdempotentUploads(before: now.addingTimeInterval(-Self.idempotencyWindow))
    }
}
