import Foundation
import GRDB

/// Holds an exclusive write lock on an SQLite database from a separate connection until released,
/// as a stuck or foreign writer would.
package final class OutboxLock: @unchecked Sendable {
    // Only touched by init and the detached thread it starts; the semaphores order them.
    private let queue: DatabaseQueue
    private let released = DispatchSemaphore(value: 0)
    private let locked = DispatchSemaphore(value: 0)

    /// Takes the write lock on the database at `path` and holds it until `release()`.
    package init(path: String) throws {
        queue = try DatabaseQueue(path: path)
        let queue = queue
        Thread.detachNewThread { [locked, released] in
            try? queue.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                released.wait()
                try db.execute(sql: "ROLLBACK")
            }
        }
        locked.wait()
    }

    /// Gives the lock back.
    package func release() {
        released.signal()
    }
}
