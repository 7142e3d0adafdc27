import Foundation
import Hummingbird

/// An error answered in the gateway's shape `{"error", "message", "retryable", "detail"}`, with a
/// stable code.
package struct APIError: Error, HTTPResponseError, Sendable, Equatable {
    /// The stable codes the API answers with, as a closed set: a code is chosen from these, never
    /// spelled at the call site (AsyncHTTPClient's pattern of a struct around a private enum, so
    /// that codes can be added without breaking callers' exhaustive switches).
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, CaseIterable {
            case bodyTooSlow = "body_too_slow"
            case decoderUnavailable = "decoder_unavailable"
            case fileTooLarge = "file_too_large"
            case idempotencyKeyReused = "idempotency_key_reused"
            case internalError = "internal_error"
            case methodNotAllowed = "method_not_allowed"
            case notFound = "not_found"
            case noteNotAllowed = "note_not_allowed"
            case noteTooLong = "note_too_long"
            case outboxDisabled = "outbox_disabled"
            case outboxUnavailable = "outbox_unavailable"
            case overloaded = "overloaded"
            case photoIDConflict = "photo_id_conflict"
            case requestTimeout = "request_timeout"
            case shuttingDown = "shutting_down"
            case storeUnavailable = "store_unavailable"
            case unauthorized = "unauthorized"
            case validationError = "validation_error"
            case validationTimeout = "validation_timeout"
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// `body_too_slow`.
        package static let bodyTooSlow = Code(.bodyTooSlow)
        /// `decoder_unavailable`.
        package static let decoderUnavailable = Code(.decoderUnavailable)
        /// `file_too_large`.
        package static let fileTooLarge = Code(.fileTooLarge)
        /// `idempotency_key_reused`.
        package static let idempotencyKeyReused = Code(.idempotencyKeyReused)
        /// `internal_error`.
        package static let internalError = Code(.internalError)
        /// `method_not_allowed`.
        package static let methodNotAllowed = Code(.methodNotAllowed)
        /// `not_found`.
        package static let notFound = Code(.notFound)
        /// `note_not_allowed`.
        package static let noteNotAllowed = Code(.noteNotAllowed)
        /// `note_too_long`.
        package static let noteTooLong = Code(.noteTooLong)
        /// `outbox_disabled`.
        package static let outboxDisabled = Code(.outboxDisabled)
        /// `outbox_unavailable`.
        package static let outboxUnavailable = Code(.outboxUnavailable)
        /// `overloaded`.
        package static let overloaded = Code(.overloaded)
        /// `photo_id_conflict`.
        package static let photoIDConflict = Code(.photoIDConflict)
        /// `request_timeout`.
        package static let requestTimeout = Code(.requestTimeout)
        /// `shutting_down`.
        package static let shuttingDown = Code(.shuttingDown)
        /// `store_unavailable`.
        package static let storeUnavailable = Code(.storeUnavailable)
        /// `unauthorized`.
        package static let unauthorized = Code(.unauthorized)
        /// `validation_error`.
        package static let validationError = Code(.validationError)
        /// `validation_timeout`.
        package static let validationTimeout = Code(.validationTimeout)

        /// Every code, for the OpenAPI document's check.
        package static var all: [Code] { Base.allCases.map(Code.init) }

        /// The code as it appears in the body's `error` field.
        package var rawValue: String { base.rawValue }

        /// The code as it appears in the body's `error` field.
        package var description: String { base.rawValue }
    }
    /// The HTTP status.
    package let status: HTTPResponse.Status
    /// The stable machine code, such as `file_too_large`.
    package let code: Code
    /// What happened, for the user.
    package let message: String
    /// Whether the same request may succeed later.
    package let retryable: Bool
    /// More detail for the operator, or nil.
    package let detail: String?
    /// Extra headers, such as `Retry-After` or `Allow`.
    package let headers: HTTPFields

    /// Creates an error answer.
    package init(status: HTTPResponse.Status, code: Code, message: String, retryable: Bool = false, detail: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.retryable = retryable
        self.detail = detail
        self.headers = headers
    }

    /// The body of the answer.
    struct Body: Codable, Equatable {
        let error: String
        let message: String
        let retryable: Bool
        let detail: String?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(error, forKey: .error)
            try container.encode(message, forKey: .message)
            try container.encode(retryable, forKey: .retryable)
            // The gateway's shape has `detail: null` rather than no key.
            try container.encode(detail, forKey: .detail)
        }
    }

    /// The JSON answer.
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try AnswerEncoder.json(Body(error: code.rawValue, message: message, retryable: retryable, detail: detail))
        return AnswerEncoder.response(json: body, status: status, headers: headers)
    }
}

extension APIError {
    /// 413: the upload is over the body limit (`limits.body_mib`).
    static func fileTooLarge(limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: .fileTooLarge, message: "Photo exceeds \(limit >> 20) MB limit",
                 detail: "the limit is \(limit) bytes; it is configured by limits.body_mib")
    }

    /// 422 (or the 4xx given): the request is malformed.
    static func validationError(_ detail: String?, status: HTTPResponse.Status = .unprocessableContent) -> APIError {
        APIError(status: status, code: .validationError, message: "The request is not valid.", detail: detail)
    }

    /// 422: an `Idempotency-Key` already answered a different upload.
    static let idempotencyKeyReused = APIError(
        status: .unprocessableContent, code: .idempotencyKeyReused, message: "This upload does not match the earlier one with the same request id.",
        detail: "an upload with this Idempotency-Key and different content was answered within the last 24 hours; send a new key for a new upload"
    )

    /// 409: the project already remembers another photo under the `photo_id` given; nothing was changed.
    static func photoIDConflict(_ photoID: String) -> APIError {
        APIError(status: .conflict, code: .photoIDConflict, message: "This photo id already names a different photo in this project.",
                 detail: "the project's duplicate check remembers another photo as '\(photoID)'; send a new photo_id, or DELETE the old photo first")
    }

    /// 422: a note on a room photo.
    static let noteNotAllowed = APIError(status: .unprocessableContent, code: .noteNotAllowed, message: "Notes are only allowed on inspiration photos")

    /// 422: a note over the maximum length.
    static func noteTooLong(maximum: Int) -> APIError {
        APIError(status: .unprocessableContent, code: .noteTooLong, message: "Inspiration photo note must be \(maximum) characters or fewer")
    }

    /// 503: every worker is busy and the queue is full.
    static func overloaded(retryAfter: Int, detail: String) -> APIError {
        APIError(status: .serviceUnavailable, code: .overloaded, message: "The photo checker is busy. Please try again in a moment.",
                 retryable: true, detail: detail, headers: [.retryAfter: String(retryAfter)])
    }

    /// 503: the validation waited for a worker longer than the validation timeout.
    static func validationTimeout(retryAfter: Int, limit: Duration) -> APIError {
        APIError(status: .serviceUnavailable, code: .validationTimeout, message: "Checking this photo took too long. Please try again in a moment.",
                 retryable: true, detail: "no worker was free within \(limit)", headers: [.retryAfter: String(retryAfter)])
    }

    /// 503: the daemon is shutting down.
    static func shuttingDown(retryAfter: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: .shuttingDown, message: "The photo checker is restarting. Please try again in a moment.",
                 retryable: true, headers: [.retryAfter: String(retryAfter)])
    }

    /// 503: the signal for a passed photo could not be committed; nothing was promised.
    static func outboxUnavailable(retryAfter: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: .outboxUnavailable, message: "We couldn't save this photo right now. Please try again in a moment.",
                 retryable: true, detail: "the signal outbox could not be written; the daemon's log has the cause", headers: [.retryAfter: String(retryAfter)])
    }

    /// 503: the store replicas share (`store.url`) could not be read or written, so the photo
    /// could be neither compared with the project's nor remembered or promised; nothing was.
    static func storeUnavailable(retryAfter: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: .storeUnavailable, message: "We couldn't save this photo right now. Please try again in a moment.",
                 retryable: true, detail: "the shared store (store.url) could not be reached; /readyz and the daemon's log have the cause",
                 headers: [.retryAfter: String(retryAfter)])
    }

    /// 503: no decode worker could take the photo (none can be started now: a broken install, the
    /// OOM killer, a crash loop), so it was not checked; the service's failure, not the photo's.
    static func decoderUnavailable(retryAfter: Int) -> APIError {
        APIError(status: .serviceUnavailable, code: .decoderUnavailable, message: "We couldn't check this photo right now. Please try again in a moment.",
                 retryable: true, detail: "no decode worker could take the photo, so it was not checked (it is not at fault); /readyz and the daemon's log have the cause",
                 headers: [.retryAfter: String(retryAfter)])
    }

    /// 404: signal forwarding is off, so there is no outbox.
    static let outboxDisabled = APIError(status: .notFound, code: .outboxDisabled, message: "Signal forwarding is off.",
                                         detail: "set signal.target to temporal or webhook to use the outbox")

    /// 408: the body did not arrive in time.
    static func requestTimeout(limit: Duration) -> APIError {
        APIError(status: .requestTimeout, code: .requestTimeout, message: "The upload took too long. Please try again.",
                 retryable: true, detail: "the body did not arrive within \(limit)")
    }

    /// 408: the body, holding upload memory, arrived too slowly: under the minimum rate, or at a
    /// rate at which the rest of its declared length would not arrive within the request timeout.
    /// Its memory is given back with the answer.
    static func bodyTooSlow(received: Int, declared: Int?, after elapsed: Duration, minimumRate: Int, timeout: Duration) -> APIError {
        let rate = Int((Double(received) / max(elapsed.seconds, 0.001) / 1024).rounded())
        let arrived = "\(received) bytes\(declared.map { " of \($0)" } ?? "") arrived in \(String(format: "%.1f", elapsed.seconds)) s (\(rate) KiB/s)"
        let rule = declared == nil
            ? "under the minimum of \(minimumRate >> 10) KiB/s (limits.min_body_rate_kib)"
            : "too slow for the rest to arrive within the request timeout of \(timeout) (limits.request_timeout_seconds)"
        return APIError(status: .requestTimeout, code: .bodyTooSlow, message: "The upload was too slow. Please try again on a faster connection.",
                        retryable: true, detail: "\(arrived), \(rule)")
    }

    /// 401: a token is configured and the request lacks it.
    static let unauthorized = APIError(status: .unauthorized, code: .unauthorized, message: "A valid bearer token is required.",
                                       detail: "send Authorization: Bearer <token>", headers: [.wwwAuthenticate: "Bearer"])

    /// 404: no such route.
    static func notFound(path: String) -> APIError {
        APIError(status: .notFound, code: .notFound, message: "There is nothing at this address.", detail: "no route for \(path); see /openapi.yaml")
    }

    /// 405: the route exists with other methods.
    static func methodNotAllowed(method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIError {
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(status: .methodNotAllowed, code: .methodNotAllowed, message: "This address does not accept \(method.rawValue).",
                        detail: "allowed: \(allow)", headers: [.allow: allow])
    }

    /// 500: something failed that the client cannot fix.
    static func internalError(requestID: String) -> APIError {
        APIError(status: .internalServerError, code: .internalError, message: "Something went wrong on our side. Please try again.",
                 retryable: true, detail: "request id \(requestID); the daemon's log has the cause")
    }
}
