import BlurMetrics
import Foundation
import GRDB
import LumaAnalysis
import Synchronization
import Testing
@testable import SignalForwarding

@Suite("Idempotent uploads in the outbox", .timeLimit(.minutes(10)))
struct IdempotentUploadTests {
    private func upload(_ key: String, photoID: String, digest: String = "d1", at time: Date = Date()) -> IdempotentUpload {
        IdempotentUpload(projectID: "project-1", key: key, requestDigest: digest, photoID: photoID, answer: "{\"photo_id\":\"\(photoID)\"}", createdAt: time)
    }

    @Test("the first answer for a key is kept with its signal; a later one for the same key gets it back and promises nothing")
    func firstAnswerWins() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        let first = upload("k", photoID: "a")
        #expect(try await outbox.record(first, promising: (workflowID: "project-1", signalName: "photo_added", photo: photo("a"))).photoID == "a")
        let second = upload("k", photoID: "b")
        let kept = try await outbox.record(second, promising: (workflowID: "project-1", signalName: "photo_added", photo: photo("b")))
        #expect(kept.photoID == "a" && kept.answer == first.answer && kept.requestDigest == first.requestDigest)
        #expect(try await outbox.counts().pending == 1)
        #expect(try await outbox.due().map(\.photo.photoID) == ["a"])
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k")?.photoID == "a")
        #expect(try await outbox.idempotentUpload(projectID: "project-2", key: "k") == nil)
    }

    @Test("a failed upload's answer is kept without a signal")
    func answerWithoutSignal() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        let failed = upload("k", photoID: "a")
        #expect(try await outbox.record(failed, promising: nil).photoID == "a")
        #expect(try await outbox.counts().pending == 0)
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k")?.photoID == "a")
    }

    @Test("a key older than the window is forgotten: looked up as absent, replaced when used again, pruned")
    func window() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        let old = upload("k", photoID: "a", at: Date().addingTimeInterval(-2 * SignalOutbox.idempotencyWindow))
        _ = try await outbox.record(old, promising: nil)
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k") == nil)
        let fresh = upload("k", photoID: "b")
        #expect(try await outbox.record(fresh, promising: nil).photoID == "b")
        _ = try await outbox.record(upload("old", photoID: "c", at: Date().addingTimeInterval(-2 * SignalOutbox.idempotencyWindow)), promising: nil)
        try await outbox.pruneIdempotentUploads(before: Date().addingTimeInterval(-SignalOutbox.idempotencyWindow))
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "old", window: 10 * SignalOutbox.idempotencyWindow) == nil)
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k")?.photoID == "b")
    }

    @Test("an answer edited in the outbox file is refused, not replayed: by its digest, or by its shape for a row stored before digests")
    func editedAnswerRefused() async throws {
        let path = temporaryOutboxPath()
        let outbox = try SignalOutbox(path: path)
        let answer = #"{"photo_id":"a","validation":{"passed":true,"failures":[],"messages":["Photo looks great!"]}}"#
        _ = try await outbox.record(IdempotentUpload(projectID: "project-1", key: "k", requestDigest: "d1", photoID: "a", answer: answer), promising: nil)
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k")?.answer == answer)
        let editor = try DatabaseQueue(path: path)
        // Still JSON of the right shape, but not the bytes that were answered: the digest tells.
        try await editor.write { try $0.execute(sql: #"UPDATE idempotent_upload SET answer = replace(answer, 'true', 'false')"#) }
        await #expect(throws: OutboxError.self) { _ = try await outbox.idempotentUpload(projectID: "project-1", key: "k") }
        // A repeat that reads the stored answer back to replay it is refused the same way.
        let repeated = IdempotentUpload(projectID: "project-1", key: "k", requestDigest: "d1", photoID: "b", answer: answer)
        await #expect(throws: OutboxError.self) { _ = try await outbox.record(repeated, promising: nil) }

        // Rows from before the digest column: a well-formed answer naming its photo is replayed, garbage is not.
        try await editor.write { try $0.execute(sql: "UPDATE idempotent_upload SET answer = ?, answer_digest = NULL", arguments: [answer]) }
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k")?.answer == answer)
        try await editor.write { try $0.execute(sql: "UPDATE idempotent_upload SET answer = 'garbage {'") }
        let error = await #expect(throws: OutboxError.self) { _ = try await outbox.idempotentUpload(projectID: "project-1", key: "k") }
        #expect(error?.description.contains("does not match the shape of an answer (edited or damaged); it is not replayed") == true)
        try await editor.write { try $0.execute(sql: #"UPDATE idempotent_upload SET answer = '{"photo_id":"someone else","validation":{"passed":true}}'"#) }
        await #expect(throws: OutboxError.self) { _ = try await outbox.idempotentUpload(projectID: "project-1", key: "k") }
    }

    @Test("the digest column is added to an outbox made before it; its rows are kept and checked by their shape")
    func digestMigration() async throws {
        let path = temporaryOutboxPath()
        let answer = #"{"photo_id":"a","validation":{"passed":false}}"#
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let old = try DatabaseQueue(path: path)
            try SignalOutbox.migrator.migrate(old, upTo: "count idempotent_upload")
            try await old.write { db in
                try db.execute(sql: "INSERT INTO idempotent_upload VALUES ('project-1', 'k', 'd1', 'a', ?, ?)", arguments: [answer, Date().timeIntervalSince1970])
            }
        }
        let outbox = try SignalOutbox(path: path)
        let stored = try #require(try await outbox.idempotentUpload(projectID: "project-1", key: "k"))
        #expect(stored.answer == answer && stored.answerDigest == nil)
    }
}

@Suite("The outbox's answers within their limits", .timeLimit(.minutes(10)))
struct IdempotentAnswerLimitsTests {
    private func upload(_ key: String, project: String = "project-1", bytes: Int = 100, at time: Date) -> IdempotentUpload {
        IdempotentUpload(projectID: project, key: key, requestDigest: "d", photoID: key, answer: String(repeating: "x", count: bytes), createdAt: time)
    }

    @Test("a project keeps its newest answers; past the byte budget the oldest of every project go; each eviction is reported")
    func evictsOldest() async throws {
        let evictions = Mutex<[IdempotentAnswerLimits.Eviction: Int]>([:])
        let outbox = try SignalOutbox(path: temporaryOutboxPath(),
                                      answerLimits: IdempotentAnswerLimits(answersPerProject: 3, totalAnswers: 1_000, totalBytes: 1_000)) { reason, count in
            evictions.withLock { $0[reason, default: 0] += count }
        }
        let start = Date()
        for index in 0..<5 {
            _ = try await outbox.record(upload("k\(index)", at: start + Double(index)), promising: nil)
        }
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k1") == nil)
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k2") != nil)
        #expect(evictions.withLock { $0[.projectFull] } == 2)
        for index in 0..<10 {
            _ = try await outbox.record(upload("o\(index)", project: "other-\(index)", at: start + 10 + Double(index)), promising: nil)
        }
        let usage = try await outbox.answerUsage()
        #expect(usage.bytes <= 1_000 && usage.answers == usage.bytes / 100)
        // Project 1's answers were the oldest of all.
        #expect(try await outbox.idempotentUpload(projectID: "project-1", key: "k4") == nil)
        #expect(try await outbox.idempotentUpload(projectID: "other-9", key: "o9") != nil)
        #expect(evictions.withLock { $0[.budget] } == 3)
    }

    @Test("1,000 keyed answers leave the outbox within its budget, and a promise still goes through")
    func manyKeys() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath(),
                                      answerLimits: IdempotentAnswerLimits(answersPerProject: 50, totalAnswers: 10_000, totalBytes: 200_000))
        for index in 0..<1_000 {
            _ = try await outbox.record(upload("k\(index)", project: "p\(index % 7)", bytes: 2_000, at: Date()), promising: nil)
        }
        #expect(try await outbox.answerUsage().bytes <= 200_000)
        let promised = upload("last", project: "good", at: Date())
        #expect(try await outbox.record(promised, promising: (workflowID: "good", signalName: "photo_added", photo: photo("last"))).photoID == "last")
        #expect(try await outbox.counts().pending == 1)
    }

    @Test("an answer over the size limit is refused, and nothing of it is written")
    func oversizedAnswer() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath(),
                                      answerLimits: IdempotentAnswerLimits(answersPerProject: 5, totalAnswers: 5, totalBytes: 1 << 20, answerBytes: 500))
        await #expect(throws: OutboxError.self) {
            try await outbox.record(upload("big", bytes: 501, at: Date()), promising: (workflowID: "w", signalName: "photo_added", photo: photo("big")))
        }
        #expect(try await outbox.counts().pending == 0)
        #expect(try await outbox.answerUsage().answers == 0)
    }

    @Test("the accepted photo's fingerprint row is written with the answer and signal, and not at all when an earlier answer wins the key")
    func fingerprintInTheSameTransaction() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        let store = try outbox.fingerprintStore(limits: .init(retention: 3600, photosPerProject: 64, totalBytes: 1 << 30))
        let fingerprint = PhotoFingerprint(of: LumaPlane(width: 64, height: 64, pixels: (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }))
        func row(_ photoID: String) async -> FingerprintRow? {
            guard case .remembered(let row) = await store.remember(fingerprint, photoID: photoID, in: "project-1", comparedUpTo: 0, compare: { _ in nil }) else { return nil }
            return row
        }
        let first = try #require(await row("a"))
        _ = try await outbox.record(upload("k", at: Date()), promising: (workflowID: "project-1", signalName: "photo_added", photo: photo("a")), fingerprint: first)
        let second = try #require(await row("b"))
        let kept = try await outbox.record(upload("k", at: Date()), promising: (workflowID: "project-1", signalName: "photo_added", photo: photo("b")), fingerprint: second)
        #expect(kept.photoID == "k")
        let rows = try await outbox.database.read { try String.fetchAll($0, sql: "SELECT photo_id FROM photo_fingerprint") }
        #expect(rows == ["a"])
    }
}

@Suite("URLs in logs and admin views", .timeLimit(.minutes(10)))
struct RedactedURLTests {
    @Test("user-info and query values are redacted; host, port and path are kept", arguments: [
        ("https://user:pa55@hooks.example.com:8443/relay?token=abc&x=1#frag", "https://<redacted>@hooks.example.com:8443/relay?token=<redacted>&x=<redacted>"),
        ("http://127.0.0.1:7243", "http://127.0.0.1:7243"),
        ("https://hooks.example.com/relay/s3cr3t-path?flag", "https://hooks.example.com/relay/s3cr3t-path?flag"),
        ("not a url with a token", "<redacted URL>"),
    ])
    func redacts(url: String, shown: String) {
        #expect(RedactedURL(url).description == shown)
    }
}
