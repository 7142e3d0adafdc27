/// What the delivery service did with one signal, for metrics and logs.
package enum DeliveryEvent: Sendable {
    /// Delivered after `attempts` attempts, `latency` after it was promised.
    case delivered(photoID: String, attempts: Int, latency: Duration)
    /// An attempt failed and will be retried.
    case failed(photoID: String, failure: DeliveryFailure)
    /// Given up.
    case deadLettered(photoID: String, failure: DeliveryFailure)
}
