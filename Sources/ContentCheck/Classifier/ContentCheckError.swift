/// Why a content check gave no answer, with a stable class for metrics, logs and
/// `details.content.error`, and whether trying again may help.
package struct ContentCheckError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case connection
        case timeout
        case rateLimited = "rate_limited"
        case overloaded
        case serverError = "server_error"
        case badRequest = "bad_request"
        case unauthorized
        case forbidden
        case payloadTooLarge = "payload_too_large"
        case unexpectedStatus = "unexpected_status"
        case malformedResponse = "malformed_response"
        case schemaViolation = "schema_violation"
        case truncated
        case refused
        case contentFiltered = "content_filtered"
        case circuitOpen = "circuit_open"
        case saturated
        case previewFailed = "preview_failed"
    }

    private let code: Code
    /// An operator-facing explanation (the provider's own message where it gave one; never the key).
    package let detail: String
    /// The HTTP status, when the provider answered with one.
    package let status: Int?
    /// How long the provider asked us to wait (`retry-after-ms`, else `retry-after`), when it did.
    package let retryAfter: Duration?
    /// The provider's own word on retrying (`x-should-retry: true|false`), which wins over the
    /// status, as the official SDKs let it.
    package let providerSaysRetry: Bool?

    private init(_ code: Code, _ detail: String, status: Int? = nil, retryAfter: Duration? = nil, providerSaysRetry: Bool? = nil) {
        self.code = code
        self.detail = detail
        self.status = status
        self.retryAfter = retryAfter
        self.providerSaysRetry = providerSaysRetry
    }

    /// The stable error class, such as `timeout` or `rate_limited`.
    package var errorClass: String { code.rawValue }

    /// True for failures a later attempt may not repeat: connection errors, 408, 409, 429, 529 and
    /// 5xx, as the official SDKs judge them, unless the provider said otherwise in `x-should-retry`.
    package var isRetryable: Bool {
        if let providerSaysRetry { return providerSaysRetry }
        switch code {
        case .connection, .rateLimited, .overloaded, .serverError: return true
        case .unexpectedStatus: return status == 408 || status == 409
        default: return false
        }
    }

    /// True for failures that say the provider is unhealthy, which the circuit breaker counts
    /// (not the ones caused by one photo or one answer). A provider that refuses the request
    /// itself (400, 401, 403, 404: a wrong model, a revoked key, a spend limit) counts too.
    package var countsAgainstProvider: Bool {
        switch code {
        case .connection, .timeout, .rateLimited, .overloaded, .serverError, .unauthorized, .forbidden, .unexpectedStatus, .badRequest: true
        default: false
        }
    }

    /// True when the provider refused the request as configured (a wrong model name, a revoked
    /// key, a spend limit, a server without image input): retrying will not heal it, an operator
    /// has to act.
    package var isConfigurationRefusal: Bool {
        switch code {
        case .badRequest, .unauthorized, .forbidden: true
        case .unexpectedStatus: status == 404
        default: false
        }
    }

    /// The class followed by the explanation.
    package var description: String { "\(code.rawValue): \(detail)" }

    /// Errors are equal when their classes are (as AsyncHTTPClient compares its errors).
    package static func == (lhs: ContentCheckError, rhs: ContentCheckError) -> Bool { lhs.code == rhs.code }

    /// The provider could not be reached, or the connection broke.
    package static func connection(_ detail: String) -> ContentCheckError { .init(.connection, detail) }
    /// The check's deadline passed.
    package static func timeout(_ detail: String) -> ContentCheckError { .init(.timeout, detail) }
    /// The provider's answer could not be read as its API defines it.
    package static func malformedResponse(_ detail: String) -> ContentCheckError { .init(.malformedResponse, detail) }
    /// The model's answer does not match the schema.
    package static func schemaViolation(_ detail: String) -> ContentCheckError { .init(.schemaViolation, detail) }
    /// The answer was cut off at the output limit (Anthropic `stop_reason: max_tokens`, OpenAI
    /// `finish_reason: length`): `content.max_output_tokens` is too low for the model.
    package static func truncated(_ detail: String) -> ContentCheckError { .init(.truncated, detail) }
    /// The model declined to classify the photo (Anthropic `stop_reason: refusal`, OpenAI `refusal`).
    package static func refused(_ detail: String) -> ContentCheckError { .init(.refused, detail) }
    /// The provider's content filter withheld the answer (OpenAI `finish_reason: content_filter`).
    package static func contentFiltered(_ detail: String) -> ContentCheckError { .init(.contentFiltered, detail) }
    /// The circuit breaker is open: the provider failed repeatedly and is not being called.
    package static func circuitOpen(_ detail: String) -> ContentCheckError { .init(.circuitOpen, detail) }
    /// Every place for a provider call stayed taken for the whole wait.
    package static func saturated(_ detail: String) -> ContentCheckError { .init(.saturated, detail) }
    /// The preview JPEG could not be made.
    package static func previewFailed(_ detail: String) -> ContentCheckError { .init(.previewFailed, detail) }

    /// The error an HTTP `status` other than 200 means, with the provider's message, its wait
    /// (`retry-after-ms` or `retry-after`) and its `x-should-retry`.
    package static func httpStatus(_ status: Int, message: String, retryAfter: Duration?, providerSaysRetry: Bool? = nil) -> ContentCheckError {
        let detail = "HTTP \(status): \(message)"
        // llama.cpp's server without a vision projector answers 500 "image input is not supported":
        // a configuration error, not a transient one.
        if status >= 500, message.localizedCaseInsensitiveContains("not supported") {
            return .init(.badRequest, detail, status: status, providerSaysRetry: providerSaysRetry)
        }
        let code: Code
        switch status {
        case 400: code = .badRequest
        case 401: code = .unauthorized
        case 403: code = .forbidden
        case 413: code = .payloadTooLarge
        case 429: code = .rateLimited
        case 529: code = .overloaded
        case 500...599: code = .serverError
        default: code = .unexpectedStatus
        }
        return .init(code, detail, status: status, retryAfter: retryAfter, providerSaysRetry: providerSaysRetry)
    }

    /// Error classes, for tests and dashboards.
    package static let rateLimited = httpStatus(429, message: "", retryAfter: nil)
    /// HTTP 529 (Anthropic: overloaded).
    package static let overloaded = httpStatus(529, message: "", retryAfter: nil)
    /// Any other 5xx.
    package static let serverError = httpStatus(500, message: "", retryAfter: nil)
    /// HTTP 400.
    package static let badRequest = httpStatus(400, message: "", retryAfter: nil)
    /// HTTP 401.
    package static let unauthorized = httpStatus(401, message: "", retryAfter: nil)
    /// HTTP 403.
    package static let forbidden = httpStatus(403, message: "", retryAfter: nil)
    /// HTTP 413.
    package static let payloadTooLarge = httpStatus(413, message: "", retryAfter: nil)
}
