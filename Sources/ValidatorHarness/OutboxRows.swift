import Foundation
import GRDB

/// Reads a daemon's outbox database after it has stopped (the soak, the forwarding bench): each
/// signal's state, attempts, last error and promise-to-delivery seconds.
package enum OutboxRows {
    /// The rows by photo id, or nil when the database cannot be read.
    package static func rows(of file: URL) -> [String: (state: String, attempts: Int, reason: String?, latency: Double?)]? {
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: file.path, configuration: configuration) else { return nil }
        return try? queue.read { db in
            var out: [String: (state: String, attempts: Int, reason: String?, latency: Double?)] = [:]
            let rows = try Row.fetchAll(db, sql: """
                SELECT photo_id, state, attempts, COALESCE(dead_reason, last_error) AS reason,
                       CASE WHEN state = 'delivered' THEN finished_at - enqueued_at END AS latency FROM signal
                """)
            for row in rows {
                out[row["photo_id"]] = (row["state"], row["attempts"], row["reason"], row["latency"])
            }
            return out
        }
    }
}
