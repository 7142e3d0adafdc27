/// Why a frame could not be sent or received.
package enum ChannelError: Error, Sendable, CustomStringConvertible {
    /// Nothing complete arrived before the deadline.
    case timedOut
    /// The other end closed the socket (it died); `prefix` holds bytes of an unfinished length.
    case closed(prefix: [UInt8])
    /// A system call failed with this errno.
    case failed(errno: Int32)
    /// A frame over `FrameChannel.maximumFrame`.
    case tooLarge(Int)
    /// A frame that breaks the protocol.
    case malformed(String)

    /// What went wrong, for logs.
    package var description: String {
        switch self {
        case .timedOut: "no answer before the deadline"
        case .closed: "the worker closed its socket"
        case .failed(let errno): "a socket call failed (errno \(errno))"
        case .tooLarge(let length): "a frame of \(length) bytes is too large"
        case .malformed(let what): "the worker sent \(what)"
        }
    }
}
