import Foundation
import TestFixtures
import Testing
@testable import SignalForwarding

/// A fresh outbox file in a temporary folder.
func temporaryOutboxPath() -> String {
    Fixtures.temporaryPath("outbox.sqlite")
}

func photo(_ id: String = UUID().uuidString.lowercased(), note: String? = nil) -> PhotoData {
    PhotoData(photoID: id, storageKey: "projects/p/photos/room_\(id).jpg", photoType: "room", note: note)
}

@Suite("Signal outbox (SQLite)", .timeLimit(.minutes(10)))
struct SignalOutboxTests {
    @Test("an enqueued signal survives reopening the database, and is due at once")
    func durable() async throws {
        let path = temporaryOutboxPath()
        let payload = photo("p-1", note: "by the window")
        do {
            let outbox = try SignalOutbox(path: path)
            try await outbox.enqueue(workflowID: "project-9", signalName: "photo_added", photo: payload)
        }
        let reopened = try SignalOutbox(path: path)
        let due = try await reopened.due()
        #expect(due.count == 1)
        #expect(due.first?.photo == payload)
        #expect(due.first?.workflowID == "project-9" && due.first?.signalName == "photo_added")
        #expect(try await reopened.counts().pending == 1)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "WAL mode")
    }

    @Test("below its free-space reserve the outbox promises nothing and reports itself unwritable; delivery bookkeeping still works")
    func freeSpaceReserve() async throws {
        let path = temporaryOutboxPath()
        do {
            let roomy = try SignalOutbox(path: path)
            try await roomy.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("before"))
        }
        // No volume has an exabyte free.
        let full = try SignalOutbox(path: path, minimumFreeBytes: 1 << 60)
        await #expect(throws: OutboxError.self) {
            try await full.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("after"))
        }
        await #expect(throws: OutboxError.self) {
            try await full.record(IdempotentUpload(projectID: "p", key: "k", requestDigest: "d", photoID: "x", answer: "{}"), promising: nil)
        }
        do {
            try await full.checkWritable()
            Issue.record("checkWritable passed on a volume under its reserve")
        } catch {
            #expect(error.description.contains("MiB reserve"))
        }
        let due = try await full.due()
        #expect(due.map(\.photo.photoID) == ["before"])
        try await full.markDelivered(try #require(due.first).id)
        #expect(try await full.counts().delivered == 1)
    }

    @Test("the same photo id cannot be promised twice")
    func uniquePhotoID() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("same"))
        await #expect(throws: OutboxError.self) {
            try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("same"))
        }
    }

    @Test("retries wait for their time, dead letters can be requeued with a fresh age window")
    func lifecycle() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        let start = Date(timeIntervalSince1970: 1_000_000)
        try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("a"), now: start)
        let entry = try #require(try await outbox.due(now: start).first)
        try await outbox.scheduleRetry(entry.id, at: start.addingTimeInterval(30), error: "HTTP 503: busy")
        #expect(try await outbox.due(now: start.addingTimeInterval(29)).isEmpty)
        let retried = try #require(try await outbox.due(now: start.addingTimeInterval(30)).first)
        #expect(retried.attempts == 1 && retried.lastError == "HTTP 503: busy")
        try await outbox.markDead(retried.id, reason: "workflow 'p' not found", now: start.addingTimeInterval(31))
        #expect(try await outbox.counts(now: start).dead == 1)
        #expect(try await outbox.deadLetters().first?.deadReason == "workflow 'p' not found")
        #expect(try await outbox.retryDeadLetters(photoID: "other") == 0)
        #expect(try await outbox.retryDeadLetters(photoID: "a", now: start.addingTimeInterval(100)) == 1)
        let requeued = try #require(try await outbox.due(now: start.addingTimeInterval(100)).first)
        #expect(requeued.ageFrom == start.addingTimeInterval(100))
        try await outbox.markDelivered(requeued.id)
        let counts = try await outbox.counts()
        #expect(counts == OutboxCounts(pending: 0, delivered: 1, dead: 0, oldestPendingAgeSeconds: nil))
    }

    @Test("an outbox that cannot be created is an error that names the path")
    func unavailable() {
        let error = #expect(throws: OutboxError.self) {
            _ = try SignalOutbox(path: "/proc/not-writable/outbox.sqlite")
        }
        #expect(error?.description.contains("/proc/not-writable/outbox.sqlite") == true)
    }
}

@Suite("Retry policy", .timeLimit(.minutes(10)))
struct RetryPolicyTests {
    @Test("delays double from the initial delay up to the maximum, with jitter in the upper half")
    func delays() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempts: 1, random: 1) == .seconds(1))
        #expect(policy.delay(afterAttempts: 1, random: 0) == .milliseconds(500))
        #expect(policy.delay(afterAttempts: 4, random: 1) == .seconds(8))
        #expect(policy.delay(afterAttempts: 30, random: 1) == .seconds(300))
        #expect(policy.delay(afterAttempts: 30, random: 0) == .seconds(150))
        #expect(policy.maximumAge == .seconds(48 * 3600))
    }
}
