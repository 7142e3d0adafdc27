import PhotoValidation

/// What the content check reports for metrics, as it happens.
package enum ContentCheckEvent: Sendable {
    /// One provider call ended: `outcome` is `ok` or the error class.
    case providerCall(provider: String, outcome: String, latency: Duration)
    /// A failed call is retried.
    case retry(errorClass: String)
    /// A check ended: `verdict` is `pass`, `content_rejected`, `too_many_people` or `error`.
    case checked(photoType: PhotoType, verdict: String, outcome: ContentCheckDetails.Outcome, latency: Duration)
    /// A check ended in an error (after retries).
    case failed(errorClass: String)
    /// The circuit breaker changed state.
    case breaker(CircuitBreaker.State)
    /// A check was answered from the cache (`hit`) or not.
    case cache(hit: Bool)
    /// Tokens billed by the provider for one call.
    case tokens(input: Int, output: Int)
    /// The provider began refusing requests as configured (`message` is its own), or, with nil,
    /// answered again after doing so.
    case refusing(message: String?)
}
