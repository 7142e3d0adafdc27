import Foundation
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
