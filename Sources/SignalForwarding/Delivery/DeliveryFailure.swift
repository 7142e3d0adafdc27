/// Why one delivery attempt failed, or why a signal was given up: a bounded kind for metrics and
/// alerts, and a message for the operator (what is stored in the outbox and logged).
package struct DeliveryFailure: Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it was; bounded, so it can label a metric.
    package struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Hashable {
            case http(Int)
            case workflowNotFound
            case unreachable
            case expired
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The target answered with HTTP `status`.
        package static func http(_ status: Int) -> Kind { Kind(.http(status)) }
        /// Temporal answered that the workflow does not exist (HTTP 404).
        package static let workflowNotFound = Kind(.workflowNotFound)
        /// The target could not be reached (DNS, connect, TLS, timeout).
        package static let unreachable = Kind(.unreachable)
        /// The signal stayed undelivered for the maximum age.
        package static let expired = Kind(.expired)

        /// The metric label: `http_<status>`, `expired` or `unreachable` (a missing workflow is `http_404`).
        package var label: String {
            switch base {
            case .http(let status): "http_\(status)"
            case .workflowNotFound: "http_404"
            case .unreachable: "unreachable"
            case .expired: "expired"
            }
        }

        /// The metric label.
        package var description: String { label }
    }

    /// The bounded kind.
    package let kind: Kind
    /// What happened, for the operator.
    package let message: String

    /// A failure of `kind` described by `message`.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
