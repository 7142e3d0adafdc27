/// What a connection does with the rest of a request body once the request has been answered
/// early (a 413, 503 or 401 before the body was read): HTTP/1.1 must read it to reach the next
/// request, and Hummingbird reads it to the end whatever its length (2 GiB in 1.5 s on loopback,
/// for a body declared over the limit and refused at once). This bounds that: the rest is drained
/// for at most `byteLimit` bytes and within the time limit from the answer (a body the daemon would
/// have taken, in the time it would have given it), and the connection then stays open as before.
/// Past the byte limit the connection stops reading (the client's bytes wait in its socket) and is
/// closed when the time limit has passed from the answer, the client having had that long to read
/// the answer: closing at once, with its bytes unread, would reset the connection and could lose
/// the answer.
///
/// Pure: `RefusedBodyDrainHandler` feeds it the connection's events and does what it answers.
struct RefusedBodyDrain {
    /// What the handler does after an event.
    enum Action: Equatable {
        /// Nothing more than passing the event on.
        case none
        /// Starts the clock of the time limit (the answer is complete, the body is not).
        case armTimer
        /// Stops the clock and reads again if reads were held back (the body ended).
        case disarmTimer
        /// Asks for no more bytes (the drain has taken `byteLimit`).
        case stopReading
        /// Closes the connection.
        case close
    }

    private enum Phase: Equatable {
        /// Between requests, or a request whose body has ended.
        case idle
        /// A request head arrived and its body has not ended.
        case receiving
        /// The answer is complete, the body is not: `bytes` drained since.
        case draining(bytes: Int)
        /// Past `byteLimit`: reading stopped, waiting for the clock to close.
        case stopped
    }

    /// Bytes of body drained after an early answer before reading stops.
    let byteLimit: Int
    private var phase = Phase.idle

    /// A drain of at most `byteLimit` bytes.
    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// True when reads are held back (`stopReading` was answered and the connection not closed).
    var holdsReads: Bool { phase == .stopped }

    /// A request head arrived.
    mutating func requestHead() {
        phase = .receiving
    }

    /// `bytes` of request body arrived.
    mutating func requestBody(_ bytes: Int) -> Action {
        guard case .draining(let drained) = phase else { return .none }
        let total = drained + bytes
        guard total <= byteLimit else {
            phase = .stopped
            return .stopReading
        }
        phase = .draining(bytes: total)
        return .none
    }

    /// The request's body ended.
    mutating func requestEnd() -> Action {
        defer { phase = .idle }
        switch phase {
        case .draining, .stopped: return .disarmTimer
        case .idle, .receiving: return .none
        }
    }

    /// The answer is complete; when the body is not, the drain begins.
    mutating func answerEnd() -> Action {
        guard phase == .receiving else { return .none }
        phase = .draining(bytes: 0)
        return .armTimer
    }

    /// The time limit has passed since an early answer: the connection closes.
    mutating func timerFired() -> Action {
        switch phase {
        case .draining, .stopped:
            phase = .idle
            return .close
        case .idle, .receiving:
            return .none
        }
    }
}
