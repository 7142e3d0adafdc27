import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import TestFixtures
import Testing
@testable import SignalForwarding

/// A loopback stand-in for Temporal's HTTP API that records each request and answers a scripted status.
final class TemporalRecorder: Sendable {
    struct Received: Sendable {
        let target: String
        let authorization: String?
        let body: Data
    }

    private let statuses: Mutex<[HTTPResponse.Status]>
    private let received = Mutex<[Received]>([])

    init(statuses: [HTTPResponse.Status]) {
        self.statuses = Mutex(statuses)
    }

    var requests: [Received] { received.withLock { $0 } }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("**") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
            self.received.withLock { $0.append(Received(target: request.head.path ?? "", authorization: request.headers[.authorization], body: body)) }
            let status = self.statuses.withLock { $0.isEmpty ? .ok : $0.removeFirst() }
            return Response(status: status, body: .init(byteBuffer: ByteBuffer(string: #"{"code": 5, "message": "scripted"}"#)))
        }
        return router
    }
}

@Suite("The Temporal target on the wire", .integration, .timeLimit(.minutes(10)))
struct TemporalTargetWireTests {
    private func entry(workflowID: String) async throws -> OutboxEntry {
        let outbox = try SignalOutbox(path: temporaryOutboxPath())
        try await outbox.enqueue(workflowID: workflowID, signalName: "photo added", photo: photo("t-1", note: "oak"))
        return try #require(try await outbox.due().first)
    }

    @Test("the API key is a bearer token, every path segment is escaped, and the photo id is the request id")
    func request() async throws {
        let recorder = TemporalRecorder(statuses: [.ok, .notFound, .tooManyRequests, .badRequest])
        let app = Application(router: recorder.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let target = TemporalSignalTarget(baseURL: "http://127.0.0.1:\(port)/", namespace: "team ns", apiKey: "key-1", identity: "pv@test")
            let entry = try await entry(workflowID: "proj/1?x#y")
            #expect(await target.deliver(entry, using: .shared) == .delivered)
            let outcomes = [await target.deliver(entry, using: .shared), await target.deliver(entry, using: .shared), await target.deliver(entry, using: .shared)]

            let first = try #require(recorder.requests.first)
            #expect(first.target == "/api/v1/namespaces/team%20ns/workflows/proj%2F1%3Fx%23y/signal/photo%20added")
            #expect(first.authorization == "Bearer key-1")
            let body = try #require(JSONSerialization.jsonObject(with: first.body) as? [String: Any])
            #expect(body["requestId"] as? String == "t-1")
            #expect(body["identity"] as? String == "pv@test")
            let input = try #require((body["input"] as? [[String: Any]])?.first)
            #expect(input["photo_id"] as? String == "t-1" && input["note"] as? String == "oak")

            guard case .reject(let missing) = outcomes[0] else { Issue.record("404 must be a dead letter: \(outcomes[0])"); return }
            #expect(missing.message.contains("workflow 'proj/1?x#y' not found in namespace 'team ns'") && missing.message.contains("scripted"))
            #expect(missing.kind == .workflowNotFound && missing.kind.label == "http_404")
            #expect(outcomes[1] == .retry(DeliveryFailure(.http(429), "HTTP 429: scripted")))
            #expect(outcomes[2] == .reject(DeliveryFailure(.http(400), "HTTP 400: scripted")))
            #expect(outcomes.map { outcome -> String in
                switch outcome {
                case .delivered: "delivered"
                case .retry(let failure), .reject(let failure): failure.kind.label
                }
            } == ["http_404", "http_429", "http_400"])
        }
    }

    @Test("answers are classified: 2xx delivered; 401, 403, 408, 409, 425, 429 and 5xx retried; other 4xx dead letters",
          arguments: [(200, "delivered"), (204, "delivered"), (401, "retry"), (403, "retry"), (408, "retry"), (409, "retry"), (425, "retry"),
                      (429, "retry"), (500, "retry"), (503, "retry"), (599, "retry"), (400, "reject"), (404, "reject"), (410, "reject"),
                      (413, "reject"), (422, "reject"), (302, "reject")])
    func classification(status: Int, expected: String) {
        let outcome = DeliveryOutcome.forStatus(status, detail: "d")
        let kind = switch outcome {
        case .delivered: "delivered"
        case .retry: "retry"
        case .reject: "reject"
        }
        #expect(kind == expected)
    }
}
