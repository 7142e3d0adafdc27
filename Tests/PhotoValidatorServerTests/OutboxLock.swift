import Foundation
import GRDB

/// Holds an exclusive write lock on an SQLite database from a separate connection until released.
final class OutboxLock: @unchecked Sendable {
    private let queue: DatabaseQueue
    private let released = DispatchSemaphore(value: 0)
    private let locked = DispatchSemaphore(value: 0)

    init(path: String) throws {
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

    func release() {
        released.signal()
    }
}
