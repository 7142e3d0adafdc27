import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request head has not been completed within `deadline` of its
/// first byte: a client trickling its headers cannot hold a connection (one of
/// `limits.max_connections`) for long. A connection that sends nothing is left to the idle
/// timeout, so idle keep-alive connections behave as before; bodies have their own deadlines.
final class RequestHeadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    private var awaitingHead = true
    private var context: ChannelHandlerContext?

    /// A handler giving each request head `deadline` from its first byte.
    init(deadline: TimeAmount) {
        self.deadline = deadline
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // Raw bytes are seen only before the HTTP decoder, so a watcher goes first in the pipeline.
        try? context.pipeline.syncOperations.addHandler(ByteArrivalHandler(onBytes: { [weak self] in self?.bytesArrived() }), position: .first)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            awaitingHead = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { awaitingHead = true }
        context.write(data, promise: promise)
    }

    private func bytesArrived() {
        guard awaitingHead, timer == nil, let context else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: deadline) {
            loopBound.value.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}

/// Tells its owner that bytes arrived on the connection, before any decoding.
private final class ByteArrivalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let onBytes: () -> Void

    init(onBytes: @escaping () -> Void) {
        self.onBytes = onBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        onBytes()
        context.fireChannelRead(data)
    }
}
