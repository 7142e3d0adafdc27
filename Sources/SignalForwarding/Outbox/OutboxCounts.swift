/// How many signals are in each state, and how old the oldest pending one is.
package struct OutboxCounts: Sendable, Equatable, Codable {
    /// Signals waiting for delivery.
    package var pending: Int
    /// Signals delivered (kept for a day, then pruned).
    package var delivered: Int
    /// Dead letters.
    package var dead: Int
    /// Seconds since the oldest pending signal was promised, or nil when none is pending.
    package var oldestPendingAgeSeconds: Double?

    /// Counts from their parts.
    package init(pending: Int, delivered: Int, dead: Int, oldestPendingAgeSeconds: Double?) {
        self.pending = pending
        self.delivered = delivered
        self.dead = dead
        self.oldestPendingAgeSeconds = oldestPendingAgeSeconds
    }

    enum CodingKeys: String, CodingKey {
        case pending, delivered, dead
        case oldestPendingAgeSeconds = "oldest_pending_age_seconds"
    }
}
