import Admission
import PhotoValidation
import Prometheus
import SignalForwarding
import Synchronization
import ValidationThreads

/// The daemon's Prometheus metrics, registered in one registry that `/metrics` renders.
package final class ServiceMetrics: Sendable {
    /// The registry `/metrics` emits.
    package let registry = PrometheusCollectorRegistry()
    private let pool: ValidationThreadPool
    private let inFlight: Gauge
    private let queued: Gauge
    private let budgetReserved: Gauge
    private let overdueJobs: Gauge
    private let overdueSeconds: Gauge
    private let workerThreads: Gauge
    private let overdueTotal: Gauge
    private let budget: WeightedSemaphore
    private let uploads: FairMemoryGate
    private let uploadsHeld: Gauge
    private let uploadsWaiting: Gauge
    private let isolation: (any PhotoDecodeIsolation)?
    private let restartsCounted = Mutex<[String: Int]>([:])
    private let replacementsCounted = Mutex<[String: Int]>([:])
    /// Decode worker start failures already added to their counter (`recordWorkerAvailability(of:)`).
    let startFailuresCounted = Mutex<Int>(0)
    private static let stageBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(50),
        .milliseconds(100), .milliseconds(200), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5),
    ]
    private static let requestBuckets: [Duration] = stageBuckets + [.seconds(10), .seconds(30)]

    /// Metrics for a daemon whose work runs on `pool` under `budget`, its bodies under `uploads`.
    init(pool: ValidationThreadPool, budget: WeightedSemaphore, uploads: FairMemoryGate, isolation: (any PhotoDecodeIsolation)? = nil) {
        self.pool = pool
        self.isolation = isolation
        self.budget = budget
        self.uploads = uploads
        inFlight = registry.makeGauge(descriptor: Self.name("validations_in_flight", unit: "", help: "Validations (bodies complete) admitted to the worker pool, running and queued"))
        queued = registry.makeGauge(descriptor: Self.name("validations_queued", unit: "", help: "Validations waiting for a worker thread"))
        budgetReserved = registry.makeGauge(descriptor: Self.name("decode_memory_reserved", unit: "bytes", help: "Decoder memory reserved by decodes in flight"))
        overdueJobs = registry.makeGauge(descriptor: Self.name("workers_stuck", unit: "", help: "Worker threads held by a job past its deadline (stuck in a decoder)"))
        overdueSeconds = registry.makeGauge(descriptor: Self.name("workers_stuck_longest", unit: "seconds", help: "How long the oldest stuck job has been past its deadline"))
        workerThreads = registry.makeGauge(descriptor: Self.name("worker_threads", unit: "", help: "Worker threads alive, stand-ins for stuck ones included"))
        uploadsHeld = registry.makeGauge(descriptor: Self.name("upload_memory_reserved", unit: "bytes", help: "Upload body memory reserved by requests being received or validated"))
        uploadsWaiting = registry.makeGauge(descriptor: Self.name("uploads_waiting", unit: "", help: "Uploads waiting, body unread, for room in the upload memory budget"))
        overdueTotal = registry.makeGauge(descriptor: Self.name("jobs_overdue", unit: "total", help: "Jobs that ran past their deadline since start"))
    }

    private static func name(_ name: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "photo_validator", metricName: name, unitName: unit, helpText: help)
    }

    /// Counts one HTTP request and its latency.
    package func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.name("http_requests", unit: "total", help: "HTTP requests by route, method and status"),
            labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name("http_request_duration", unit: "seconds", help: "HTTP request latency by route"),
            labels: [("route", route)],
            buckets: Self.requestBuckets
        ).record(duration)
    }

    /// Counts one validation by photo type and outcome, each failure code, and the stage timings.
    package func recordValidation(_ output: ValidatePhotoOutput) {
        let photoType = output.details.photoType.rawValue
        registry.makeCounter(
            descriptor: Self.name("validations", unit: "total", help: "Validations by photo type and outcome"),
            labels: [("photo_type", photoType), ("outcome", output.passed ? "passed" : "failed")]
        ).increment()
        for code in output.failures {
            registry.makeCounter(
                descriptor: Self.name("validation_failures", unit: "total", help: "Failure codes by photo type"),
                labels: [("photo_type", photoType), ("code", code.rawValue)]
            ).increment()
        }
        let timings = output.details.timingsMs
        for (stage, milliseconds) in timings.stages {
            registry.makeDurationHistogram(
                descriptor: Self.name("validation_stage_duration", unit: "seconds", help: "Time per validation stage"),
                labels: [("stage", stage)],
                buckets: Self.stageBuckets
            ).record(.nanoseconds(Int64(milliseconds * 1_000_000)))
        }
    }

    /// Counts one request refused because the daemon was saturated.
    package func recordRejection(reason: String) {
        registry.makeCounter(
            descriptor: Self.name("rejected", unit: "total", help: "Requests refused with 503 by reason (overloaded, timeout, shutting_down)"),
            labels: [("reason", reason)]
        ).increment()
    }

    /// Counts one delivery outcome of the signal forwarder.
    package func recordDelivery(_ event: DeliveryEvent) {
        switch event {
        case .delivered(_, _, let latency):
            registry.makeCounter(descriptor: Self.name("signal_deliveries", unit: "total", help: "Signals delivered")).increment()
            registry.makeDurationHistogram(
                descriptor: Self.name("signal_delivery_latency", unit: "seconds", help: "Time from promise (200 answer) to delivery"),
                labels: [],
                buckets: Self.requestBuckets + [.seconds(60), .seconds(600), .seconds(3600)]
            ).record(latency)
        case .failed(_, let failure):
            registry.makeCounter(
                descriptor: Self.name("signal_delivery_failures", unit: "total", help: "Failed delivery attempts (retried) by reason"),
                labels: [("reason", failure.kind.label)]
            ).increment()
        case .deadLettered(_, let failure):
            registry.makeCounter(
                descriptor: Self.name("signal_dead_letters", unit: "total", help: "Signals given up by reason"),
                labels: [("reason", failure.kind.label)]
            ).increment()
        }
    }

    /// Sets the outbox gauges from `counts`.
    package func recordOutbox(_ counts: OutboxCounts) {
        registry.makeGauge(descriptor: Self.name("outbox_pending", unit: "", help: "Signals waiting for delivery")).set(Double(counts.pending))
        registry.makeGauge(descriptor: Self.name("outbox_dead", unit: "", help: "Dead letters in the outbox")).set(Double(counts.dead))
        registry.makeGauge(descriptor: Self.name("outbox_oldest_pending_age", unit: "seconds", help: "Age of the oldest undelivered signal"))
            .set(counts.oldestPendingAgeSeconds ?? 0)
    }

    /// Brings `decode_worker_restarts_total` (a counter per reason) and
    /// `decode_worker_replacements_total` (per outcome) up to the isolation's counts, every label
    /// listed from the start at 0.
    private func recordWorkerRestarts() {
        guard let isolation else { return }
        record(
            isolation.restartCounts, in: restartsCounted, as: "decode_worker_restarts", label: "reason",
            help: "Decode worker processes replaced after ending with a photo, by reason"
        )
        record(
            isolation.replacementCounts, in: replacementsCounted, as: "decode_worker_replacements", label: "outcome",
            help: "Decode worker processes started in the background to replace stopped ones, by outcome (started, failed)"
        )
        recordWorkerAvailability(of: isolation)
    }

    /// Brings the counters `name`_total, one per `label` value, up to `counts`; `tally` holds what they count already.
    private func record(_ counts: [String: Int], in tally: borrowing Mutex<[String: Int]>, as name: String, label: String, help: String) {
        tally.withLock { counted in
            for (value, count) in counts {
                let counter = registry.makeCounter(descriptor: Self.name(name, unit: "total", help: help), labels: [(label, value)])
                let delta = count - counted[value, default: 0]
                if delta > 0 { counter.increment(by: Int64(delta)) }
                counted[value] = count
            }
        }
    }

    /// The Prometheus text exposition, with the gauges read now.
    package func render() -> [UInt8] {
        inFlight.set(Double(pool.inFlight))
        queued.set(Double(pool.queued))
        budgetReserved.set(Double(budget.held))
        uploadsHeld.set(Double(uploads.held))
        uploadsWaiting.set(Double(uploads.waiting))
        let health = pool.health
        overdueJobs.set(Double(health.overdueJobs))
        overdueSeconds.set(health.longestOverdue?.seconds ?? 0)
        workerThreads.set(Double(health.threads))
        overdueTotal.set(Double(health.overdueTotal))
        recordWorkerRestarts()
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
