import Hummingbird
import ValidationThreads

/// Holds a validation, body unread, while its caller already has photos waiting and the full
/// worker pool would refuse it whatever the project (`ValidationThreadPool.ticket(for:waitingAtMost:poll:)`),
/// for at most `limits.admission_wait_seconds`, then answers 503 `overloaded` still unread. A
/// request let through carries a place promised to it (`ValidationRequestContext.admissionTicket`),
/// so one held request goes on for each place that frees.
///
/// A caller flooding a full pool so neither makes the daemon read, then refuse, every body it
/// sends, nor gets an answer at once to send the next: either way that would take CPU (the
/// daemon's and, on a shared host, the flooding client's) from the other callers' admitted photos.
struct FairAdmissionMiddleware: RouterMiddleware {
    typealias Context = ValidationRequestContext

    /// The service whose pool and caller rule are asked.
    let service: PhotoValidationService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isValidation(request) else { return try await next(request, context) }
        let pool = service.pool
        guard let ticket = await pool.ticket(for: service.caller(of: request, context: context), waitingAtMost: service.configuration.admissionWait) else {
            service.metrics.recordRejection(reason: "overloaded")
            let capacity = pool.threadCount + pool.queueLimit
            throw APIError.overloaded(retryAfter: service.configuration.retryAfterSeconds,
                                      detail: ThreadPoolError.overloaded(inFlight: capacity, capacity: capacity).description)
        }
        defer { pool.settle(ticket) }
        var context = context
        context.admissionTicket = ticket
        return try await next(request, context)
    }

    /// True for the routes that take a worker: `POST /v1/validate` and the upload.
    static func isValidation(_ request: Request) -> Bool {
        guard request.method == .post else { return false }
        let path = request.uri.path
        return path == "/v1/validate" || (path.hasPrefix("/api/v1/projects/") && path.hasSuffix("/photos"))
    }
}
