import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// Posts each signal as a signed JSON event to a URL, for gateways that relay it themselves.
///
/// Headers: `X-Photo-Validator-Timestamp` (Unix seconds), `X-Photo-Validator-Signature`
/// (`v1=` and the hex HMAC-SHA256, keyed by the shared secret, of `<timestamp>.<body>`), and
/// `X-Photo-Validator-Delivery` (the photo id, the same on every retry).
package struct WebhookSignalTarget: SignalTarget {
    /// `webhook`.
    package let name = "webhook"
    /// Where events are posted.
    package let url: String
    private let secret: String
    private let clock: @Sendable () -> Date

    /// A target posting to `url`, signing with `secret`.
    package init(url: String, secret: String, clock: @escaping @Sendable () -> Date = Date.init) {
        self.url = url
        self.secret = secret
        self.clock = clock
    }

    /// The event body.
    struct Event: Encodable {
        let type = "photo_added"
        let signalName: String
        let workflowID: String
        let photo: PhotoData
        let enqueuedAt: String

        enum CodingKeys: String, CodingKey {
            case type
            case signalName = "signal_name"
            case workflowID = "workflow_id"
            case photo
            case enqueuedAt = "enqueued_at"
        }
    }

    /// The signature header value for `body` sent at `timestamp`.
    package static func signature(body: Data, timestamp: Int, secret: String) -> String {
        let message = Data("\(timestamp).".utf8) + body
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return "v1=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// Makes one attempt through `client`.
    package func deliver(_ entry: OutboxEntry, using client: HTTPClient) async -> DeliveryOutcome {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let body = try encoder.encode(Event(
                signalName: entry.signalName, workflowID: entry.workflowID, photo: entry.photo,
                enqueuedAt: ISO8601DateFormatter().string(from: entry.enqueuedAt)
            ))
            let timestamp = Int(clock().timeIntervalSince1970)
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "X-Photo-Validator-Timestamp", value: String(timestamp))
            request.headers.add(name: "X-Photo-Validator-Signature", value: Self.signature(body: body, timestamp: timestamp, secret: secret))
            request.headers.add(name: "X-Photo-Validator-Delivery", value: entry.photo.photoID)
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: .seconds(10))
            let text = await response.body.textPrefix()
            return DeliveryOutcome.forStatus(Int(response.status.code), detail: text.isEmpty ? "no body" : String(text.prefix(300)))
        } catch {
            return .retry(DeliveryFailure(.unreachable, "cannot reach the webhook at \(RedactedURL(url)): \(error)"))
        }
    }
}
