import Foundation
import Hummingbird
import PhotoValidation
import SharedStore

/// Liveness, readiness, metrics and the API description.
struct OperationsController {
    let service: PhotoValidationService
    let state: ServiceState
    let forwarder: SignalForwarder?
    let sharedStore: SharedStore?

    func addRoutes(to router: Router<ValidationRequestContext>) {
        router.get("/healthz", use: health)
        router.get("/readyz", use: ready)
        router.get("/metrics") { _, _ in
            // While the shared store is down its figures stay as last read: a scrape must not wait for it.
            let storeDown = if case .unavailable = sharedStore?.readiness { true } else { false }
            if let forwarder, !storeDown, let counts = try? await forwarder.queue.counts(now: Date()) {
                service.metrics.recordOutbox(counts)
            }
            if !storeDown, let usage = try? await service.duplicates?.usage() {
                service.metrics.recordMemory(photos: usage.photos, bytes: usage.bytes, projects: usage.projects)
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: service.metrics.render())))
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.text)))
        }
    }

    /// 200 while the process can serve; 503 once a worker has been stuck in a decoder for longer
    /// than `limits.stuck_worker_unhealthy_seconds`, so a supervisor restarts the process (a thread
    /// inside C code cannot be stopped from within).
    @Sendable func health(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        let health = service.pool.health
        let limit = service.configuration.stuckWorkerUnhealthyAfter
        if let overdue = health.longestOverdue, overdue >= limit {
            let reasons = "\(health.overdueJobs) worker(s) stuck in a decoder, the oldest for \(Int(overdue.seconds)) s past its deadline "
                + "(limit \(Int(limit.seconds)) s); restart the process"
            return try EditedResponse(status: .serviceUnavailable, response: StatusAnswer(status: "unhealthy", reasons: reasons))
                .response(from: request, context: context)
        }
        return try StatusAnswer(status: "ok").response(from: request, context: context)
    }

    /// 200 when the daemon can take work: not draining, the worker pool running with its full
    /// complement of threads, a decode worker to be had (when photos decode in worker processes),
    /// the outbox (when forwarding is on) writable, and the shared store (when `store.url` is set)
    /// migrated and answering. Saturation is not unreadiness: it shows in metrics and 503s.
    @Sendable func ready(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        var reasons: [String] = []
        if state.isDraining {
            reasons.append("draining: shutting down")
        }
        let pool = service.pool
        let health = pool.health
        if health.overdueJobs > pool.maximumReplacements {
            reasons.append("workers: \(health.overdueJobs) stuck in a decoder, more than the \(pool.maximumReplacements) stand-ins allowed")
        }
        if let why = service.validator.isolation?.unavailableReason {
            reasons.append("decode workers: \(why)")
        }
        // With the shared store, this replica's outbox file is not used: the store's check says it all.
        if let outbox = forwarder?.outbox {
            do {
                try await outbox.checkWritable()
            } catch {
                reasons.append("outbox: \(error)")
            }
        }
        if let sharedStore, let why = await sharedStore.check() {
            reasons.append("store: \(why)")
        }
        let restarts = service.validator.isolation?.restartCounts
        if reasons.isEmpty {
            // A provider that refuses every request degrades the content check, not the daemon:
            // it stays ready, and says why photos take the policy.
            if let refusal = service.content?.refusingMessage {
                let reason = "content: the provider refuses requests as configured (check content.model, the key and the account's limits): \(refusal)"
                return try StatusAnswer(status: "degraded", reasons: reason, decodeWorkerRestarts: restarts).response(from: request, context: context)
            }
            return try StatusAnswer(status: "ready", decodeWorkerRestarts: restarts).response(from: request, context: context)
        }
        return try EditedResponse(status: .serviceUnavailable, response: StatusAnswer(status: "not_ready", reasons: reasons.joined(separator: "; "), decodeWorkerRestarts: restarts))
            .response(from: request, context: context)
    }

}
