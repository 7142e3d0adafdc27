import Foundation
import PostgresNIO
import SignalForwarding

extension SharedOutbox: SignalQueue {
    /// Signals a replica claims at once: each attempt takes at most 10 s (the targets' timeout), so
    /// a claim's attempts end well within its lease.
    static let claimBatch = 2
    /// How long a claim holds its signals from the other replicas: one that dies mid-attempt leaves
    /// them to the others after this.
    static let claimLease: TimeInterval = 30

    /// The database, without its password.
    package var location: String { store.endpoint.description }

    /// `claimDue`: the due signals no other replica is attempting, claimed for this one.
    package func dueSignals(now: Date) async throws -> [OutboxEntry] {
        try await claimDue(now: now, lease: Self.claimLease, limit: Self.claimBatch)
    }

    /// When the next pending signal of any replica is due, or nil when none is pending.
    package func nextDueDate() async throws -> Date? {
        let logger = logger
        return try await store.read { connection in
            let rows = try await connection.query("SELECT MIN(next_attempt_at) FROM photo_validator.signal WHERE state = 'pending'", logger: logger)
            for try await next in rows.decode(Double?.self) { return next.map(Date.init(timeIntervalSince1970:)) }
            return nil
        }
    }

    /// Deletes delivered signals finished a day ago and answers past the idempotency window, at
    /// most once a minute per replica.
    package func pruneFinished(now: Date) async throws {
        let time = Int64(now.timeIntervalSince1970)
        let last = lastPrune.load(ordering: .relaxed)
        guard time - last >= 60, lastPrune.compareExchange(expected: last, desired: time, ordering: .relaxed).exchanged else { return }
        let delivered = now.timeIntervalSince1970 - 86_400, answered = now.timeIntervalSince1970 - SignalOutbox.idempotencyWindow
        try await execute("DELETE FROM photo_validator.signal WHERE state = 'delivered' AND finished_at < \(delivered)")
        try await execute("DELETE FROM photo_validator.idempotent_upload WHERE created_at < \(answered)")
    }

}
