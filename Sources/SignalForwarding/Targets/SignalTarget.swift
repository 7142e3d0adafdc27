/// Where promised signals go.
public protocol SignalTarget: Sendable {
    /// A short name for logs and metrics, such as `temporal`.
    var name: String { get }
    /// Makes one delivery attempt.
    func deliver(_ entry: OutboxEntry) async -> DeliveryOutcome
    /// Releases connections; called once when delivery stops.
    func shutdown() async
}
