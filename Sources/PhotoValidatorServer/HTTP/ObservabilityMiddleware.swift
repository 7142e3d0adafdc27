import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PhotoValidation

/// The outermost middleware: assigns the request id, turns every error into the gateway's error
/// shape, and writes one log line and the metrics of each request.
struct ObservabilityMiddleware: RouterMiddleware {
    typealias Context = ValidationRequestContext

    static let requestIDHeader = HTTPField.Name("X-Request-ID")!

    let logger: Logger
    let metrics: ServiceMetrics
    let routes: @Sendable () -> RouteTable
    /// The configured body limit, for the 413 answer.
    let bodyLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let requestID = Self.acceptableRequestID(request.headers[Self.requestIDHeader]) ?? UUID().uuidString.lowercased()
        context.record.requestID = requestID
        let clock = ContinuousClock()
        let start = clock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = try answer(for: error, request: request, context: context).response(from: request, context: context)
        }
        let duration = clock.now - start
        response.headers[Self.requestIDHeader] = requestID
        // Requests that matched no route are counted under one label, whatever their path.
        let route = context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unmatched"
        metrics.recordRequest(route: route, method: Self.methodLabel(request.method), status: response.status.code, duration: duration)
        log(request: request, response: response, route: route, requestID: requestID, duration: duration, record: context.record)
        return response
    }

    /// The API error to answer for `error`.
    private func answer(for error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError where error.status == .notFound:
            let allowed = routes().methods(matching: request.uri.path)
            return allowed.isEmpty ? .notFound(path: request.uri.path) : .methodNotAllowed(method: request.method, allowed: allowed)
        case let error as HTTPError where error.status == .contentTooLarge:
            // Hummingbird's own limit on collected bodies; ours is checked first, so this is a backstop.
            return .fileTooLarge(limit: bodyLimit)
        case let error as HTTPError where (400..<500).contains(error.status.code):
            return .validationError(error.body, status: error.status)
        default:
            context.record.errorCause = String(describing: error)
            return .internalError(requestID: context.requestID)
        }
    }

    private func log(request: Request, response: Response, route: String, requestID: String, duration: Duration, record: RequestRecord) {
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID),
            "method": .string(request.method.rawValue),
            "route": .string(route),
            "status": .stringConvertible(response.status.code),
            "duration_ms": .string(String(format: "%.1f", duration.milliseconds)),
        ]
        if let validation = record.validation {
            metadata["photo_type"] = .string(validation.photoType)
            metadata["outcome"] = .string(validation.passed ? "passed" : "failed")
            metadata["failures"] = .array(validation.failures.map { .string($0) })
            metadata["timings_ms"] = .dictionary(validation.timingsMs.mapValues { .string(String(format: "%.1f", $0)) })
            if let content = validation.content {
                metadata["content"] = .string(content)
            }
        }
        if let cause = record.errorCause {
            metadata["error"] = .string(cause)
        }
        let level: Logger.Level = response.status.code >= 500 && response.status != .serviceUnavailable ? .error : .info
        logger.log(level: level, "request", metadata: metadata)
    }

    /// A client's request id when it is short and plain ASCII, safe to log and echo.
    static func acceptableRequestID(_ value: String?) -> String? {
        guard let value, PlainIdentifier.isValid(value, maximumLength: 128) else { return nil }
        return value
    }

    /// The method as a metric label; methods nobody routes are one label, so clients cannot
    /// create series at will.
    static func methodLabel(_ method: HTTPRequest.Method) -> String {
        [.get, .post, .put, .delete, .head, .options, .patch].contains(method) ? method.rawValue : "other"
    }
}
