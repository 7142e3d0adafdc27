import Prometheus
import SignalForwarding

extension ServiceMetrics {
    /// Counts photos the duplicate memory forgot to stay within its limits, by reason.
    package func recordEvictions(_ evicted: [EvictedPhoto]) {
        for reason in EvictedPhoto.Reason.allCases {
            let count = evicted.count { $0.reason == reason }
            guard count > 0 else { continue }
            registry.makeCounter(
                descriptor: MetricNameDescriptor(namespace: "photo_validator", metricName: "duplicate_memory_evictions", unitName: "total",
                                                 helpText: "Accepted photos the duplicate check forgot before their retention ended, by reason (age, project_full, budget)"),
                labels: [("reason", reason.rawValue)]
            ).increment(by: Int64(count))
        }
    }

    /// Sets the duplicate memory's gauges: photos, bytes and projects kept.
    package func recordMemory(photos: Int, bytes: Int, projects: Int) {
        registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "photo_validator", metricName: "duplicate_memory_photos",
                                                            helpText: "Accepted photos the duplicate check keeps")).set(Double(photos))
        registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "photo_validator", metricName: "duplicate_memory", unitName: "bytes",
                                                            helpText: "Bytes the duplicate check's kept fingerprints take")).set(Double(bytes))
        registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "photo_validator", metricName: "duplicate_memory_projects",
                                                            helpText: "Projects the duplicate check keeps photos of")).set(Double(projects))
    }

    /// Counts idempotent answers the outbox forgot to stay within its limits, by reason.
    package func recordAnswerEvictions(reason: IdempotentAnswerLimits.Eviction, count: Int) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "photo_validator", metricName: "idempotent_answers_evicted", unitName: "total",
                                             helpText: "Answers to keyed uploads the outbox forgot before their window ended, by reason (project_full, budget)"),
            labels: [("reason", reason.rawValue)]
        ).increment(by: Int64(count))
    }
}
