import CVips
import Synchronization

/// Decides whether libvips' error text belongs to one operation.
///
/// libvips keeps one error buffer for the whole process, so the text read after a failure may be
/// another thread's. Each operation takes a ticket; the text is reported only when the operation
/// ran alone (no other was in flight when it began and none began since). Otherwise the failure
/// says that the detail was withheld, and the buffer is cleared either way.
enum VipsErrorAttribution {
    /// One operation's claim on the error buffer.
    struct Ticket: Sendable {
        fileprivate let epoch: UInt64
        fileprivate let alone: Bool
    }

    private struct State {
        var active = 0
        var epoch: UInt64 = 0
    }

    private static let state = Mutex(State())

    /// Registers an operation that is about to call libvips.
    static func begin() -> Ticket {
        state.withLock { state in
            state.active += 1
            state.epoch &+= 1
            let alone = state.active == 1
            // Text left from operations that have all ended belongs to none of them any more.
            if alone { vips_error_clear() }
            return Ticket(epoch: state.epoch, alone: alone)
        }
    }

    /// Registers the end of the operation `ticket` was taken for.
    static func end(_ ticket: Ticket) {
        state.withLock { $0.active -= 1 }
    }

    /// The error text for the failure of the operation holding `ticket`, or why it is withheld;
    /// clears the buffer.
    static func message(for ticket: Ticket) -> String {
        state.withLock { state in
            let text = VipsRuntime.takeErrorMessage()
            guard ticket.alone, state.epoch == ticket.epoch else {
                return "libvips' detail withheld: other photos were decoding at the same time and its error buffer is process-wide"
            }
            return text
        }
    }

    /// Runs `body` as one operation with its ticket.
    static func withTicket<Result, Failure: Error>(_ body: (Ticket) throws(Failure) -> Result) throws(Failure) -> Result {
        let ticket = begin()
        defer { end(ticket) }
        return try body(ticket)
    }
}
