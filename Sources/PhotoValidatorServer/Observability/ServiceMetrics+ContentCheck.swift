import ContentCheck
import Prometheus

extension ServiceMetrics {
    private static let providerBuckets: [Duration] = [
        .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(500), .seconds(1), .seconds(2),
        .seconds(3), .seconds(5), .seconds(8), .seconds(10), .seconds(15), .seconds(30),
    ]

    /// Records one event of the content check: provider calls and their latency, retries, checks
    /// by verdict and outcome, errors by class, the breaker's state, cache lookups and tokens.
    package func recordContent(_ event: ContentCheckEvent) {
        func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "photo_validator", metricName: name, unitName: unit, helpText: help)
        }
        switch event {
        case .providerCall(let provider, let outcome, let latency):
            registry.makeCounter(descriptor: name("content_provider_calls", "total", "Content provider calls by provider and outcome (ok or error class)"),
                                 labels: [("provider", provider), ("outcome", outcome)]).increment()
            registry.makeDurationHistogram(descriptor: name("content_provider_latency", "seconds", "Latency of one content provider call"),
                                           labels: [("provider", provider)], buckets: Self.providerBuckets).record(latency)
        case .retry(let errorClass):
            registry.makeCounter(descriptor: name("content_retries", "total", "Content provider calls retried, by the error that caused it"),
                                 labels: [("error_class", errorClass)]).increment()
        case .checked(let photoType, let verdict, let outcome, let latency):
            registry.makeCounter(descriptor: name("content_checks", "total", "Content checks by photo type, verdict and outcome (classified, passed_on_error, failed_closed)"),
                                 labels: [("photo_type", photoType.rawValue), ("verdict", verdict), ("outcome", outcome.rawValue)]).increment()
            registry.makeDurationHistogram(descriptor: name("content_check_duration", "seconds", "Time of one content check, retries and queueing included"),
                                           labels: [], buckets: Self.providerBuckets).record(latency)
        case .failed(let errorClass):
            registry.makeCounter(descriptor: name("content_errors", "total", "Content checks that ended in an error, by class"),
                                 labels: [("error_class", errorClass)]).increment()
        case .breaker(let state):
            let value: Double = switch state {
            case .closed: 0
            case .halfOpen: 1
            case .open: 2
            }
            registry.makeGauge(descriptor: name("content_breaker_state", "", "Content provider circuit breaker: 0 closed, 1 half-open, 2 open")).set(value)
            registry.makeCounter(descriptor: name("content_breaker_transitions", "total", "Circuit breaker changes by new state"),
                                 labels: [("state", state.rawValue)]).increment()
        case .cache(let hit):
            registry.makeCounter(descriptor: name("content_cache_lookups", "total", "Content cache lookups by result"),
                                 labels: [("result", hit ? "hit" : "miss")]).increment()
        case .tokens(let input, let output):
            registry.makeCounter(descriptor: name("content_input_tokens", "total", "Input tokens billed by the content provider")).increment(by: Int64(input))
            registry.makeCounter(descriptor: name("content_output_tokens", "total", "Output tokens billed by the content provider")).increment(by: Int64(output))
        case .refusing(let message):
            registry.makeGauge(descriptor: name("content_provider_refusing", "", "1 while the content provider refuses requests as configured (model, key, limits); see /readyz"))
                .set(message == nil ? 0.0 : 1.0)
        }
    }
}
