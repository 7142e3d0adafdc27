import Hummingbird
import Logging
import NIOCore
import ValidationThreads

/// The per-request context: Hummingbird's core storage, the request id, and the record that the
/// request log line and metrics are written from.
package struct ValidationRequestContext: RequestContext {
    /// Hummingbird's storage.
    package var coreContext: CoreRequestContextStorage
    /// What the handler learned, read by the observability middleware after the response.
    package let record: RequestRecord
    /// The name of the `auth.tokens` entry the request authenticated with, or nil (no named
    /// token, or the shared `auth.token`); set by `BearerAuthMiddleware`.
    package var authenticatedCaller: String?
    /// The place in the worker pool promised to a validation before its body is read; set by
    /// `FairAdmissionMiddleware`, ended when the request asks for its slot or ends.
    package var admissionTicket: ValidationThreadPool.Ticket?
    private let channel: any Channel

    /// Creates a context for a new request.
    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.record = RequestRecord()
        self.channel = source.channel
    }

    /// Tells a client waiting on `Expect: 100-continue` to send its body; nothing for others.
    func wantBody() {
        channel.triggerUserOutboundEvent(ExpectContinueHandler.BodyWanted(), promise: nil)
    }

    /// The peer's IP address (or socket path), or nil when unknown.
    var peerAddress: String? {
        channel.remoteAddress.map { $0.ipAddress ?? $0.pathname ?? "\($0)" }
    }

    /// Every answer's JSON encoding.
    package var responseEncoder: AnswerEncoder { AnswerEncoder() }

    /// The request id (from `X-Request-ID` or generated).
    package var requestID: String {
        record.requestID
    }
}
