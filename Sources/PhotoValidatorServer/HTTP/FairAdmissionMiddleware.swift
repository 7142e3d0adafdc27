import ValidationWorkers
import Hummingbird

/// Refuses a validation with 503 `overloaded` before its body is read when its caller already has
/// photos waiting and the full worker pool would refuse it whatever the project
/// (`ValidationWorkerPool.refusesNow(caller:)`), so a caller flooding a full pool does not make the
/// daemon read, then refuse, every body it sends: that reading takes CPU from the other callers'
/// admitted photos.
struct FairAdmissionMiddleware: RouterMiddleware {
    typealias Context = ValidationRequestContext

    /// The service whose pool and caller rule are asked.
    let service: PhotoValidationService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isValidation(request), service.pool.refusesNow(caller: service.caller(of: request, context: context)) else {
            return try await next(request, context)
        }
        service.metrics.recordRejection(reason: "overloaded")
        let capacity = service.pool.threadCount + service.pool.queueLimit
        throw APIError.overloaded(retryAfter: service.configuration.retryAfterSeconds,
                                  detail: WorkerPoolError.overloaded(inFlight: capacity, capacity: capacity).description)
    }

    /// True for the routes that take a worker: `POST /v1/validate` and the upload.
    static func isValidation(_ request: Request) -> Bool {
        guard request.method == .post else { return false }
        let path = request.uri.path
        return path == "/v1/validate" || (path.hasPrefix("/api/v1/projects/") && path.hasSuffix("/photos"))
    }
}
