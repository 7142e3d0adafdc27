import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// A webhook receiver on loopback that checks signatures like a gateway relay would, and answers
/// with scripted statuses.
package final class WebhookReceiver: Sendable {
    /// One request the receiver took.
    package struct Received: Sendable {
        /// The raw body.
        package let body: Data
        /// True when the signature matched the body and the timestamp was within five minutes.
        package let signatureValid: Bool
        /// The `X-Photo-Validator-Delivery` header (the photo id).
        package let delivery: String?
    }

    /// The HMAC key signatures are checked with.
    package let secret: String
    private let statuses: Mutex<[HTTPResponse.Status]>
    private let received = Mutex<[Received]>([])

    /// A receiver checking signatures with `secret`, answering `statuses` in turn, then 200.
    package init(secret: String, statuses: [HTTPResponse.Status] = []) {
        self.secret = secret
        self.statuses = Mutex(statuses)
    }

    /// Every request so far, in order.
    package var deliveries: [Received] { received.withLock { $0 } }

    /// The receiver's routes: `POST /hook`.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
            let timestamp = request.headers[HTTPField.Name("X-Photo-Validator-Timestamp")!].flatMap(Int.init) ?? 0
            let signature = request.headers[HTTPField.Name("X-Photo-Validator-Signature")!] ?? ""
            // Verify independently of the sender's helper: HMAC-SHA256 over "<timestamp>.<body>".
            let expected = "v1=" + HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).".utf8) + body, using: SymmetricKey(data: Data(self.secret.utf8)))
                .map { String(format: "%02x", $0) }.joined()
            let fresh = abs(Date().timeIntervalSince1970 - Double(timestamp)) < 300
            self.received.withLock {
                $0.append(Received(body: body, signatureValid: signature == expected && fresh, delivery: request.headers[HTTPField.Name("X-Photo-Validator-Delivery")!]))
            }
            let status = self.statuses.withLock { $0.isEmpty ? .ok : $0.removeFirst() }
            return Response(status: status)
        }
        return router
    }
}
