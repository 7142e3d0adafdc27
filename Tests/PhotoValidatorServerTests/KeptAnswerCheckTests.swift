import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestFixtures
import Testing
@testable import PhotoValidatorServer

/// A kept answer to a keyed upload is replayed only when it is the answer that was given: one
/// edited or damaged in the outbox file is refused with 503, never sent as a 200.
@Suite("Kept answers are checked before a replay", .integration, .timeLimit(.minutes(10)))
struct KeptAnswerCheckTests {
    @Test("an answer edited in the outbox gets 503 outbox_unavailable with Retry-After on the repeat, not the edited bytes")
    func editedAnswerRefused() async throws {
        let path = Fixtures.temporaryPath("outbox.sqlite")
        try await withLiveApp({ configuration in
            configuration.signal.target = .temporal
            configuration.signal.temporalURL = "http://127.0.0.1:9"
            configuration.signal.outboxPath = path
        }) { client, _ in
            // A failed photo: its answer is kept for the key, and no signal waits for the unreachable target.
            let key: HTTPFields = [.idempotencyKey: "gw-req-edited"]
            let first = try await upload(client, file: "photos/small-coffee.png", headers: key)
            #expect(first.status == .ok)
            let replayed = try await upload(client, file: "photos/small-coffee.png", headers: key)
            #expect(replayed.headers[.idempotentReplayed] == "true" && String(buffer: replayed.body) == String(buffer: first.body))
            let editor = try DatabaseQueue(path: path)
            try await editor.write { try $0.execute(sql: "UPDATE idempotent_upload SET answer = 'garbage'") }
            let refused = try await upload(client, file: "photos/small-coffee.png", headers: key)
            try expectError(refused, status: .serviceUnavailable, code: "outbox_unavailable")
            #expect(refused.headers[.retryAfter] != nil)
            #expect(!String(buffer: refused.body).contains("garbage"))
        }
    }
}
