import AsyncHTTPClient
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import TestFixtures
import Testing
@testable import SignalForwarding

@Suite("Webhook delivery against a loopback receiver", .integration, .timeLimit(.minutes(10)))
struct WebhookDeliveryTests {
    let logger = Logger(label: "test")

    /// Runs `body` with the client the delivery service makes for itself, shut down afterwards.
    func withDeliveryClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        let client = SignalDeliveryService.makeClient()
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func service(outbox: SignalOutbox, port: Int, secret: String) -> SignalDeliveryService {
        var policy = RetryPolicy()
        policy.initialDelay = .milliseconds(50)
        let target = WebhookSignalTarget(url: "http://127.0.0.1:\(port)/hook", secret: secret)
        return SignalDeliveryService(outbox: outbox, target: target, policy: policy, logger: logger)
    }

    @Test("a signed event is delivered after a 503 is retried, and the signature verifies")
    func deliversWithRetry() async throws {
        let receiver = WebhookReceiver(secret: "hook-secret", statuses: [.serviceUnavailable])
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let outbox = try SignalOutbox(path: temporaryOutboxPath())
            let payload = photo("w-1", note: "blue sofa")
            try await outbox.enqueue(workflowID: "proj-7", signalName: "photo_added", photo: payload)
            let delivery = service(outbox: outbox, port: port, secret: "hook-secret")
            #expect(try await withDeliveryClient { try await delivery.deliverDue(using: $0) } == 1)
            #expect(try await outbox.counts().pending == 1, "a 503 is retried, not dropped")
            #expect(try await outbox.entry(photoID: "w-1")?.lastError?.hasPrefix("HTTP 503") == true)
            try await Task.sleep(for: .milliseconds(120))
            #expect(try await withDeliveryClient { try await delivery.deliverDue(using: $0) } == 1)
            #expect(try await outbox.counts().delivered == 1)

            let deliveries = receiver.deliveries
            #expect(deliveries.count == 2)
            #expect(deliveries.allSatisfy { $0.signatureValid && $0.delivery == "w-1" })
            let event = try #require(JSONSerialization.jsonObject(with: deliveries[1].body) as? [String: Any])
            #expect(event["type"] as? String == "photo_added")
            #expect(event["workflow_id"] as? String == "proj-7")
            #expect(event["signal_name"] as? String == "photo_added")
            let photoObject = try #require(event["photo"] as? [String: Any])
            #expect(photoObject["photo_id"] as? String == "w-1" && photoObject["note"] as? String == "blue sofa")
            #expect(photoObject["storage_key"] as? String == payload.storageKey && photoObject["photo_type"] as? String == "room")
        }
    }

    @Test("a 4xx answer moves the signal to dead letters at once, with the reason")
    func rejected() async throws {
        let receiver = WebhookReceiver(secret: "s", statuses: [.badRequest])
        let app = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let outbox = try SignalOutbox(path: temporaryOutboxPath())
            try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("w-2"))
            let delivery = service(outbox: outbox, port: try #require(client.port), secret: "s")
            _ = try await withDeliveryClient { try await delivery.deliverDue(using: $0) }
            let dead = try #require(try await outbox.deadLetters().first)
            #expect(dead.photo.photoID == "w-2")
            #expect(dead.deadReason?.hasPrefix("HTTP 400") == true)
        }
    }

    @Test("a signal older than the maximum age becomes a dead letter instead of another retry")
    func expires() async throws {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        try await outbox.enqueue(workflowID: "p", signalName: "photo_added", photo: photo("old"), now: Date().addingTimeInterval(-49 * 3600))
        // Nothing listens on this port: every attempt fails as unreachable.
        let delivery = service(outbox: outbox, port: 9, secret: "s")
        _ = try await withDeliveryClient { try await delivery.deliverDue(using: $0) }
        let dead = try #require(try await outbox.deadLetters().first)
        #expect(dead.deadReason?.hasPrefix("undelivered for 48 h after 1 attempts") == true)
    }

    @Test("the signature helper matches a known HMAC-SHA256 vector")
    func signatureVector() {
        // HMAC-SHA256(key "secret", "1700000000.{}") computed with Python's hmac module.
        #expect(WebhookSignalTarget.signature(body: Data("{}".utf8), timestamp: 1_700_000_000, secret: "secret")
                == "v1=" + Self.pythonVector)
    }

    static let pythonVector = "b8569b78799ff9e3cbff0fc2d63a33a2b57f3282abd07c37ae5e8e7d79a5f163"
}
