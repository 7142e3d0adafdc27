import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Sends `100 Continue` to a client that asked for it (`Expect: 100-continue`) when the handler
/// is about to read the body: such a client (curl, for bodies over 1 MiB) otherwise waits a second
/// before sending its photo. A request refused before its body is read (413, 422, 503) is
/// answered without it, so the client need not send the body at all.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The outbound event a request handler triggers when it is about to read the body.
    struct BodyWanted: Sendable {}

    private var awaitingContinue = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data) {
            awaitingContinue = request.headerFields[.expect]?.lowercased() == "100-continue"
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is BodyWanted else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        guard awaitingContinue else {
            promise?.succeed()
            return
        }
        awaitingContinue = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: promise)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Once the final answer has begun, the body is no longer wanted.
        if case .head = unwrapOutboundIn(data) { awaitingContinue = false }
        context.write(data, promise: promise)
    }
}
