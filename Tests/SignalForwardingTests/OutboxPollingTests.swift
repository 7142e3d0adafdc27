import Foundation
import GRDB
import TestFixtures
import Testing
@testable import SignalForwarding

/// The delivery loop's poll against rows and locks it did not make.
@Suite("Outbox polling", .timeLimit(.minutes(10)))
struct OutboxPollingTests {
    @Test("a row whose payload cannot be read becomes a dead letter with the reason; the others are still due")
    func unreadablePayload() async throws {
        let path = temporaryOutboxPath()
        let outbox = try SignalOutbox(path: path)
        try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("good"))
        try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("bad"))
        let editor = try DatabaseQueue(path: path)
        try await editor.write { db in
            try db.execute(sql: "UPDATE signal SET payload = '{not json' WHERE photo_id = 'bad'")
        }
        #expect(try await outbox.due().map(\.photo.photoID) == ["good"])
        let dead = try await editor.read { db in
            try Row.fetchOne(db, sql: "SELECT state, dead_reason FROM signal WHERE photo_id = 'bad'").map { ($0[0] as String, $0[1] as String?) }
        }
        #expect(dead?.0 == "dead")
        #expect(dead?.1?.hasPrefix("unreadable payload in the outbox") == true)
        #expect(try await outbox.counts().dead == 1)
        #expect(try await outbox.due().map(\.photo.photoID) == ["good"], "a dead letter is not polled again")
    }

    @Test("polling does not need the write lock: another connection holding it fails no poll")
    func pollUnderForeignWriteLock() async throws {
        let path = temporaryOutboxPath()
        let outbox = try SignalOutbox(path: path)
        try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("waiting"))
        let foreign = try OutboxLock(path: path)
        defer { foreign.release() }
        // A poll that took the write lock would wait out the 2 s busy timeout and throw SQLITE_BUSY.
        #expect(try await outbox.due().map(\.photo.photoID) == ["waiting"])
        #expect(try await outbox.nextDueDate() != nil)
        await #expect(throws: OutboxError.self, "a promise still needs the lock, and says so") {
            try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("new"))
        }
    }
}
