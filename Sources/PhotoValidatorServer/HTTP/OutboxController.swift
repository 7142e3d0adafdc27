import Foundation
import Hummingbird
import SharedStore
import SignalForwarding

/// The outbox admin view: counts and recent dead letters, and retrying dead letters (over every
/// replica's signals with the shared store).
struct OutboxController {
    let forwarder: SignalForwarder?
    /// The `Retry-After` of a 503 when the shared store cannot be read.
    var retryAfterSeconds = 1

    func addRoutes(to router: Router<ValidationRequestContext>) {
        router.get("/v1/outbox", use: show)
        router.post("/v1/outbox/retry", use: retry)
    }

    /// One dead letter as the admin view shows it.
    struct DeadLetter: Encodable {
        let photoID: String
        let workflowID: String
        let signalName: String
        let attempts: Int
        let reason: String
        let enqueuedAt: Date
        let deadAt: Date?

        enum CodingKeys: String, CodingKey {
            case photoID = "photo_id", workflowID = "workflow_id", signalName = "signal_name", attempts, reason
            case enqueuedAt = "enqueued_at", deadAt = "dead_at"
        }
    }

    /// The answer of `POST /v1/outbox/retry`.
    struct Requeued: ResponseEncodable {
        /// Dead letters put back in the queue.
        let requeued: Int
    }

    /// The admin view.
    struct View: ResponseEncodable {
        let target: String
        let outbox: String
        let counts: OutboxCounts
        let deadLetters: [DeadLetter]

        enum CodingKeys: String, CodingKey {
            case target, outbox, counts
            case deadLetters = "dead_letters"
        }
    }

    /// `GET /v1/outbox?limit=N`: counts by state, the oldest pending age, and the newest dead letters.
    @Sendable func show(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        try await refusingWhenStoreDown(context) { try await shown(request, context: context) }
    }

    private func shown(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        guard let forwarder else { throw APIError.outboxDisabled }
        let limit = request.uri.queryParameters.get("limit").map { Int($0) } ?? 20
        guard let limit, (1...500).contains(limit) else {
            throw APIError.validationError("limit must be a whole number from 1 to 500")
        }
        let queue = forwarder.queue
        let dead = try await queue.deadLetters(limit: limit).map { entry in
            DeadLetter(photoID: entry.photo.photoID, workflowID: entry.workflowID, signalName: entry.signalName, attempts: entry.attempts,
                       reason: entry.deadReason ?? "", enqueuedAt: entry.enqueuedAt, deadAt: entry.finishedAt)
        }
        let view = View(target: forwarder.delivery.target.name, outbox: queue.location,
                        counts: try await queue.counts(now: Date()), deadLetters: dead)
        return try view.response(from: request, context: context)
    }

    /// `POST /v1/outbox/retry[?photo_id=…]`: requeues dead letters (all, or one) with a fresh age window.
    @Sendable func retry(_ request: Request, context: ValidationRequestContext) async throws -> Response {
        guard let forwarder else { throw APIError.outboxDisabled }
        let requeued = try await refusingWhenStoreDown(context) {
            try await forwarder.queue.retryDeadLetters(photoID: request.uri.queryParameters.get("photo_id"), now: Date())
        }
        forwarder.delivery.signalEnqueued()
        return try Requeued(requeued: requeued).response(from: request, context: context)
    }

    /// `body`'s value, or 503 `store_unavailable` when the shared store cannot be used.
    private func refusingWhenStoreDown<Value>(_ context: ValidationRequestContext, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as SharedStoreError {
            context.record.errorCause = error.description
            throw APIError.storeUnavailable(retryAfter: retryAfterSeconds)
        }
    }

}
