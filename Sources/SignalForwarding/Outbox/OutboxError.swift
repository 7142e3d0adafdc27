/// The outbox could not be used; nothing was promised.
package enum OutboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database could not be opened, read or written.
    case unavailable(String)

    /// What happened.
    package var description: String {
        switch self {
        case .unavailable(let detail): detail
        }
    }
}
