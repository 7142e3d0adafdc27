import AsyncHTTPClient

/// Where promised signals go.
package protocol SignalTarget: Sendable {
    /// A short name for logs and metrics, such as `temporal`.
    var name: String { get }
    /// Makes one delivery attempt through `client` (owned by the caller: the delivery service
    /// makes it when it starts and shuts it down when it stops).
    func deliver(_ entry: OutboxEntry, using client: HTTPClient) async -> DeliveryOutcome
}
