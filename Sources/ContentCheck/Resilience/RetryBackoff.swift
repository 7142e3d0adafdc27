/// Exponential backoff with equal jitter (a random point in the upper half of each delay), honouring a provider's `retry-after`.
package struct RetryBackoff: Sendable {
    /// The delay before the first retry, before jitter.
    package var initialDelay: Duration
    /// The longest delay.
    package var maximumDelay: Duration

    /// Creates a backoff.
    package init(initialDelay: Duration, maximumDelay: Duration) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before retry number `retry` (1 for the first): a random share of
    /// `initialDelay * 2^(retry-1)` capped at `maximumDelay`, or `retryAfter` when the provider
    /// asked for one (which may exceed `maximumDelay`: the caller gives up if it passes the deadline).
    package func delay(beforeRetry retry: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter { return retryAfter }
        let exponent = Double(1 << min(max(retry - 1, 0), 30))
        let ceiling = min(initialDelay * exponent, maximumDelay)
        // Equal jitter spreads the retries of many callers hit by the same outage and keeps each wait at least half the ceiling.
        return ceiling * Double.random(in: 0.5...1)
    }
}
