import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds the drain of a request body answered early (`RefusedBodyDrain`): counts what is drained
/// after the answer, holds reads back past the byte limit, and closes the connection when the time
/// limit has passed since the answer with the body still unfinished.
final class RefusedBodyDrainHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var drain: RefusedBodyDrain
    private let timeLimit: TimeAmount
    private var timer: Scheduled<Void>?
    /// A read asked for while reads were held back, passed on if the body ends after all.
    private var readPending = false

    /// A handler draining at most `byteLimit` bytes within `timeLimit` of an early answer.
    init(byteLimit: Int, timeLimit: TimeAmount) {
        drain = RefusedBodyDrain(byteLimit: byteLimit)
        self.timeLimit = timeLimit
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let action: RefusedBodyDrain.Action
        switch unwrapInboundIn(data) {
        case .head:
            drain.requestHead()
            action = .none
        case .body(let bytes):
            action = drain.requestBody(bytes.readableBytes)
        case .end:
            action = drain.requestEnd()
        }
        context.fireChannelRead(data)
        perform(action, context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ends = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if ends { perform(drain.answerEnd(), context: context) }
    }

    func read(context: ChannelHandlerContext) {
        // Past the byte limit the client's bytes wait in its socket until the connection closes.
        guard !drain.holdsReads else {
            readPending = true
            return
        }
        context.read()
    }

    private func perform(_ action: RefusedBodyDrain.Action, context: ChannelHandlerContext) {
        switch action {
        case .none, .stopReading:
            break
        case .armTimer:
            disarm()
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: timeLimit) {
                let (handler, context) = loopBound.value
                handler.timer = nil
                if handler.drain.timerFired() == .close { context.close(promise: nil) }
            }
        case .disarmTimer:
            disarm()
            if readPending {
                readPending = false
                context.read()
            }
        case .close:
            context.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
