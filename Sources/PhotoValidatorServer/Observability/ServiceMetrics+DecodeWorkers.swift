import PhotoValidation
import Prometheus
import Synchronization

extension ServiceMetrics {
    /// Brings `decode_worker_start_failures_total` up to the isolation's count of worker starts
    /// that failed, and sets `decode_workers_available` to 1 while a worker can be had, 0 while
    /// none can (photos are then refused 503 `decoder_unavailable` and /readyz is 503).
    func recordWorkerAvailability(of isolation: any PhotoDecodeIsolation) {
        let failures = isolation.startFailures
        let counter = registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "photo_validator", metricName: "decode_worker_start_failures", unitName: "total",
            helpText: "Decode worker processes that could not be started or ended before reading their first photo"))
        startFailuresCounted.withLock { counted in
            if failures > counted { counter.increment(by: Int64(failures - counted)) }
            counted = max(counted, failures)
        }
        registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "photo_validator", metricName: "decode_workers_available",
            helpText: "1 while a decode worker can be had, 0 while none can be started (photos get 503 decoder_unavailable)"))
            .set(isolation.unavailableReason == nil ? 1.0 : 0.0)
    }
}
