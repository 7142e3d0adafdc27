import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SignalForwarding
import TestFixtures
import Testing
@testable import PhotoValidatorServer

/// Applies settings for forwarding to `temporal` with a fresh outbox and quick retries.
func forwarding(to temporal: TemporalDevServer, outbox: String = Fixtures.temporaryPath("outbox.sqlite")) -> (inout ServiceConfiguration) -> Void {
    { configuration in
        configuration.signal.target = .temporal
        configuration.signal.temporalURL = temporal.httpURL
        configuration.signal.outboxPath = outbox
        configuration.signal.retry.initialDelay = .milliseconds(100)
        configuration.signal.retry.maximumDelay = .milliseconds(500)
    }
}

@Suite("photo_added reaches a real Temporal workflow", .integration, .serialized, .enabled(if: TemporalDevServer.available, "needs the temporal CLI in .venv: run scripts/test"), .timeLimit(.minutes(10)))
struct PhotoAddedSignalTests {
    @Test("a passed upload produces exactly one signal with the PhotoData; a failed one produces none")
    func exactlyOnce() async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await temporal.startWorkflow(id: "project-a")
        try await withLiveApp(forwarding(to: temporal)) { client, app in
            let passed = try await upload(client, project: "project-a", fields: ["photo_type": "inspiration", "note": "the green chair", "storage_key": "s3://bucket/k.jpg"])
            let photoID = try #require(try jsonObject(passed)["photo_id"] as? String)
            let failed = try await upload(client, project: "project-a", file: "photos/small-coffee.png")
            #expect((try jsonObject(failed)["validation"] as? [String: Any])?["passed"] as? Bool == false)
            let delivered = try await poll { try await app.forwarder!.outbox!.counts().delivered == 1 }
            #expect(delivered)
            let signals = try await temporal.signals(workflowID: "project-a", named: "photo_added")
            #expect(signals.count == 1)
            let signal = try #require(signals.first)
            #expect(signal["photo_id"] as? String == photoID)
            #expect(signal["storage_key"] as? String == "s3://bucket/k.jpg")
            #expect(signal["photo_type"] as? String == "inspiration")
            #expect(signal["note"] as? String == "the green chair")
            #expect(Set(signal.keys) == ["photo_id", "storage_key", "photo_type", "note"])
            #expect(try await app.forwarder!.outbox!.counts().pending == 0)
        }
    }

    @Test("a repeated upload with the same Idempotency-Key gets the first answer and promises no second signal, even when the repeats race")
    func idempotentUploads() async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await temporal.startWorkflow(id: "project-i")
        try await withLiveApp(forwarding(to: temporal)) { client, app in
            let key: HTTPFields = [.idempotencyKey: "gw-req-1"]
            let first = try await upload(client, project: "project-i", headers: key)
            let repeated = try await upload(client, project: "project-i", headers: key)
            #expect(first.status == .ok && repeated.status == .ok)
            #expect(first.headers[.idempotentReplayed] == nil)
            #expect(repeated.headers[.idempotentReplayed] == "true")
            #expect(String(buffer: repeated.body) == String(buffer: first.body))
            try expectError(try await upload(client, project: "project-i", file: "photos/room-living-wine.jpg", headers: key),
                            status: .unprocessableContent, code: "idempotency_key_reused")
            // Five racing copies of one upload: one answer, one signal.
            let raced = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        // Another photo: a second copy of the first would be duplicate_photo.
                        try jsonObject(try await upload(client, project: "project-i", file: "photos/room-living-wine.jpg", headers: [.idempotencyKey: "gw-req-2"]))["photo_id"] as? String
                    }
                }
                return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
            }
            #expect(raced.count == 1)
            let delivered = try await poll { try await app.forwarder!.outbox!.counts().delivered == 2 }
            #expect(delivered)
            let signals = try await temporal.signals(workflowID: "project-i", named: "photo_added").compactMap { $0["photo_id"] as? String }
            #expect(signals.sorted() == [try jsonObject(first)["photo_id"] as? String, raced.first ?? nil].compactMap { $0 }.sorted())
        }
    }

    @Test("uploads while Temporal is down still answer 200; every signal arrives once it is back")
    func temporalOutage() async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await temporal.startWorkflow(id: "project-b")
        await temporal.stop()
        try await withLiveApp(forwarding(to: temporal)) { client, app in
            var photoIDs: [String] = []
            // Three different photos: a second copy of one would be duplicate_photo, promising nothing.
            for file in ["photos/cups.jpg", "photos/room-living-wine.jpg", "photos/outdoor-path.jpg"] {
                let response = try await upload(client, project: "project-b", file: file)
                #expect(response.status == .ok)
                photoIDs.append(try #require(try jsonObject(response)["photo_id"] as? String))
            }
            #expect(try await poll { try await app.forwarder!.outbox!.entry(photoID: photoIDs[2])?.attempts ?? 0 >= 1 })
            let view = try jsonObject(try await client.execute(uri: "/v1/outbox", method: .get))
            #expect((view["counts"] as? [String: Any])?["pending"] as? Int == 3)
            #expect(view["target"] as? String == "temporal")

            try await temporal.start()
            #expect(try await poll { try await app.forwarder!.outbox!.counts().delivered == 3 })
            let signals = try await temporal.signals(workflowID: "project-b", named: "photo_added")
            #expect(signals.compactMap { $0["photo_id"] as? String }.sorted() == photoIDs.sorted())
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_signal_deliveries_total 3"))
            #expect(metrics.contains("photo_validator_signal_delivery_failures_total{reason=\"unreachable\"}"))
            #expect(metrics.contains("photo_validator_outbox_pending 0"))
        }
    }

    @Test("a signal to a workflow that does not exist becomes a dead letter with a clear reason, and can be retried")
    func unknownWorkflow() async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await withLiveApp(forwarding(to: temporal)) { client, app in
            let response = try await upload(client, project: "no-such-project")
            #expect(response.status == .ok)
            #expect(try await poll { try await app.forwarder!.outbox!.counts().dead == 1 })
            let view = try jsonObject(try await client.execute(uri: "/v1/outbox", method: .get))
            let dead = try #require((view["dead_letters"] as? [[String: Any]])?.first)
            #expect(dead["workflow_id"] as? String == "no-such-project")
            let reason = try #require(dead["reason"] as? String)
            #expect(reason.contains("workflow 'no-such-project' not found in namespace 'default'"), "\(reason)")
            for limit in ["0", "501", "ten"] {
                try expectError(try await client.execute(uri: "/v1/outbox?limit=\(limit)", method: .get), status: .unprocessableContent, code: "validation_error")
            }

            // Once the workflow exists, an operator requeues the dead letter and it is delivered.
            try await temporal.startWorkflow(id: "no-such-project")
            let retried = try jsonObject(try await client.execute(uri: "/v1/outbox/retry", method: .post))
            #expect(retried["requeued"] as? Int == 1)
            #expect(try await poll { try await app.forwarder!.outbox!.counts().delivered == 1 })
            #expect(try await temporal.signals(workflowID: "no-such-project", named: "photo_added").count == 1)
        }
    }
}

@Suite("Outbox operations", .integration, .timeLimit(.minutes(10)))
struct OutboxOperationsTests {
    @Test("with forwarding off, nothing is promised and the outbox view says so")
    func forwardingOff() async throws {
        try await withLiveApp { client, app in
            #expect(app.forwarder == nil)
            #expect(try await upload(client).status == .ok)
            try expectError(try await client.execute(uri: "/v1/outbox", method: .get), status: .notFound, code: "outbox_disabled")
        }
    }

    @Test("when the outbox cannot be written, a passed upload gets 503 and readiness fails")
    func outboxUnwritable() async throws {
        let path = Fixtures.temporaryPath("outbox.sqlite")
        try await withLiveApp({ configuration in
            configuration.signal.target = .temporal
            configuration.signal.temporalURL = "http://127.0.0.1:9"
            configuration.signal.outboxPath = path
        }) { client, _ in
            // Another connection holds the write lock, as a stuck or foreign writer would.
            let blocker = try OutboxLock(path: path)
            defer { blocker.release() }
            let response = try await upload(client)
            try expectError(response, status: .serviceUnavailable, code: "outbox_unavailable")
            #expect(response.headers[.retryAfter] != nil)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect((try jsonObject(ready)["reasons"] as? String)?.contains("outbox") == true)
            // A failed photo promises nothing, so it is still answered.
            #expect(try await upload(client, file: "photos/small-coffee.png").status == .ok)
        }
    }
}
