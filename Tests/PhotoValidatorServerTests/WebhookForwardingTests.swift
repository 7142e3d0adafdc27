import Foundation
import Hummingbird
import HummingbirdTesting
import TestFixtures
import Testing
@testable import PhotoValidatorServer

@Suite("photo_added through the daemon to a webhook", .integration, .timeLimit(.minutes(10)))
struct WebhookForwardingTests {
    @Test("a passed upload is posted, signed, to the configured webhook, and counted in the metrics; a failed one is not")
    func delivered() async throws {
        let receiver = WebhookReceiver(secret: "daemon-secret", statuses: [.serviceUnavailable])
        let hook = Application(router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await hook.test(.live) { hookClient in
            let port = try #require(hookClient.port)
            try await withLiveApp({ configuration in
                configuration.signal.target = .webhook
                configuration.signal.webhookURL = "http://127.0.0.1:\(port)/hook"
                configuration.signal.webhookSecret = "daemon-secret"
                configuration.signal.outboxPath = Fixtures.temporaryPath("outbox.sqlite")
                configuration.signal.retry.initialDelay = .milliseconds(100)
                configuration.signal.retry.maximumDelay = .milliseconds(300)
            }) { client, app in
                let passed = try await upload(client, project: "project-w", fields: ["photo_type": "room", "storage_key": "s3://bucket/w.jpg"])
                let photoID = try #require(try jsonObject(passed)["photo_id"] as? String)
                let failed = try await upload(client, project: "project-w", file: "photos/small-coffee.png")
                #expect((try jsonObject(failed)["validation"] as? [String: Any])?["passed"] as? Bool == false)
                // The receiver answers 503 first: the daemon retries, then delivers.
                #expect(try await poll { try await app.forwarder!.outbox!.counts().delivered == 1 })
                let deliveries = receiver.deliveries
                #expect(deliveries.count == 2)
                #expect(deliveries.allSatisfy { $0.signatureValid && $0.delivery == photoID })
                let last = try #require(deliveries.last)
                let event = try #require(JSONSerialization.jsonObject(with: last.body) as? [String: Any])
                #expect(event["type"] as? String == "photo_added" && event["workflow_id"] as? String == "project-w")
                let photo = try #require(event["photo"] as? [String: Any])
                #expect(photo["photo_id"] as? String == photoID && photo["storage_key"] as? String == "s3://bucket/w.jpg")
                let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                #expect(metrics.contains("photo_validator_signal_deliveries_total 1"))
                #expect(metrics.contains("photo_validator_signal_delivery_failures_total{reason=\"http_503\"} 1"))
            }
        }
    }
}
