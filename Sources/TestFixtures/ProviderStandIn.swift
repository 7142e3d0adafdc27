import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// A loopback stand-in for a vision-model provider that speaks its exact wire format: Anthropic's
/// Messages API (`POST /v1/messages`, `x-api-key`, `anthropic-version: 2023-06-01`, forced tool
/// use, `{"type":"error","error":{...}}` errors) or an OpenAI-compatible chat-completions server
/// (`POST /v1/chat/completions`, bearer key, `image_url` data URLs, `json_schema` response format,
/// `{"error":{...}}` errors). It refuses what the real APIs refuse (401 without the key; 400 for a
/// missing or wrong `anthropic-version`, a media type Anthropic does not take, an image over 5 MB
/// of base64 or 8000 px on a side, a missing tool, a strict JSON schema with keywords outside
/// OpenAI's strict subset such as `maxLength`, or `max_tokens` for a model that wants
/// `max_completion_tokens`), records every request it accepts the shape of, and answers what the
/// test's script says.
package final class ProviderStandIn: Sendable {
    /// The wire protocol spoken.
    package enum Dialect: String, Sendable {
        /// Anthropic Messages API.
        case anthropic
        /// OpenAI chat completions.
        case openai
    }

    /// One request as received and parsed.
    package struct Received: Sendable {
        /// Header names (lower case) to values.
        package let headers: [String: String]
        /// The `model` field.
        package let model: String
        /// The image's declared media type.
        package let mediaType: String
        /// The decoded image bytes.
        package let image: [UInt8]
        /// The tool (Anthropic) or JSON schema (OpenAI) name the answer must follow.
        package let toolName: String
        /// The names of the schema's required fields.
        package let requiredFields: [String]
        /// The question's text.
        package let question: String
        /// The whole body as JSON text.
        package let body: String
    }

    /// What to answer.
    package enum Reply: Sendable {
        /// A successful classification with these fields (encoded as the dialect encodes answers).
        case labels(scene: String, mainSubject: String, designRelated: Bool, reason: String)
        /// A successful message whose answer is this raw JSON text (for schema violations).
        case answerJSON(String)
        /// An error status with the dialect's error body, and optionally `retry-after`.
        case error(status: Int, retryAfter: String? = nil)
        /// An error status with the dialect's error body and these extra headers
        /// (`retry-after-ms`, `x-should-retry`).
        case errorWithHeaders(status: Int, headers: [String: String])
        /// A 200 whose answer stopped for `reason` (Anthropic `stop_reason` such as `max_tokens`,
        /// `refusal`, `pause_turn`; OpenAI `finish_reason` such as `length`, `content_filter`), with
        /// `partial` as the cut-off answer text when there is one.
        case stopped(reason: String, partial: String?)
        /// A raw body with a status (for malformed answers).
        case raw(status: Int, body: String)
        /// Waits this long first, then answers `then`.
        case delayed(Duration, then: ReplyBox)
        /// Never answers (until the stand-in stops).
        case hang
        /// Sends a 200 head, then one byte of a valid answer every `interval`.
        case trickle(interval: Duration)
    }

    /// Boxes a reply inside another.
    package final class ReplyBox: Sendable {
        /// The boxed reply.
        package let reply: Reply
        /// Boxes `reply`.
        package init(_ reply: Reply) { self.reply = reply }
    }

    /// The dialect.
    package let dialect: Dialect
    /// The key requests must carry.
    package let apiKey: String
    private let script: @Sendable (Received, Int) -> Reply
    private let state = Mutex<(received: [Received], inFlight: Int, peak: Int, stopped: Bool)>(([], 0, 0, false))

    /// A stand-in for `dialect` requiring `apiKey`, answering request number n (0-based) with `script`.
    package init(_ dialect: Dialect, apiKey: String = "test-key", script: @escaping @Sendable (Received, Int) -> Reply) {
        self.dialect = dialect
        self.apiKey = apiKey
        self.script = script
    }

    /// Every well-formed request received, in order.
    package var received: [Received] { state.withLock { $0.received } }
    /// The most requests that were in flight at once.
    package var peakConcurrency: Int { state.withLock { $0.peak } }

    /// Ends every hanging or trickling answer.
    package func stop() {
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    /// The router to serve (`Application(router:).test(.live)` or `run`).
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        let path = dialect == .anthropic ? "/v1/messages" : "/v1/chat/completions"
        router.post(RouterPath(path)) { request, context in
            try await self.handle(request, context: context)
        }
        return router
    }

    private func handle(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 32 << 20)
        let data = Data(buffer: body)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let parsed: Received
        switch parse(data, headers: headers) {
        case .success(let received): parsed = received
        case .failure(let refusal): return errorResponse(status: refusal.status, message: refusal.message)
        }
        let index = state.withLock { state -> Int in
            state.received.append(parsed)
            state.inFlight += 1
            state.peak = max(state.peak, state.inFlight)
            return state.received.count - 1
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return try await respond(script(parsed, index), to: parsed)
    }

    private func respond(_ reply: Reply, to request: Received) async throws -> Response {
        switch reply {
        case .labels(let scene, let subject, let design, let reason):
            let answer: [String: Any] = ["scene": scene, "main_subject": subject, "design_related": design, "reason": reason]
            return jsonResponse(status: 200, successBody(answerObject: answer, answerText: nil, request: request))
        case .answerJSON(let text):
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            return jsonResponse(status: 200, successBody(answerObject: object ?? text, answerText: text, request: request))
        case .error(let status, let retryAfter):
            var response = errorResponse(status: status, message: "stand-in error \(status)")
            if let retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .errorWithHeaders(let status, let extra):
            var response = errorResponse(status: status, message: "stand-in error \(status)")
            for (name, value) in extra {
                if let field = HTTPField.Name(name) { response.headers[field] = value }
            }
            return response
        case .stopped(let reason, let partial):
            return jsonResponse(status: 200, stoppedBody(reason: reason, partial: partial, request: request))
        case .raw(let status, let body):
            return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        case .delayed(let duration, let then):
            try? await Task.sleep(for: duration)
            return try await respond(then.reply, to: request)
        case .hang:
            while !stopped { try? await Task.sleep(for: .milliseconds(20)) }
            return errorResponse(status: 500, message: "stand-in stopped")
        case .trickle(let interval):
            let answer: [String: Any] = ["scene": "interior_room", "main_subject": "space", "design_related": true, "reason": "a room"]
            let text = successBody(answerObject: answer, answerText: nil, request: request)
            return Response(status: .ok, headers: [.contentType: "application/json", .contentLength: String(text.utf8.count)], body: .init { writer in
                for byte in text.utf8 {
                    if self.stopped { break }
                    try await writer.write(ByteBuffer(bytes: [byte]))
                    try? await Task.sleep(for: interval)
                }
                try await writer.finish(nil)
            })
        }
    }

    private struct Refusal: Error {
        let status: Int
        let message: String
    }

    /// Checks the request the way the real API does and extracts what tests look at.
    private func parse(_ data: Data, headers: [String: String]) -> Result<Received, Refusal> {
        switch dialect {
        case .anthropic:
            guard headers["x-api-key"] == apiKey else { return .failure(Refusal(status: 401, message: "invalid x-api-key")) }
            guard headers["anthropic-version"] == "2023-06-01" else { return .failure(Refusal(status: 400, message: "anthropic-version: 2023-06-01 is required")) }
        case .openai:
            guard headers["authorization"] == "Bearer \(apiKey)" else { return .failure(Refusal(status: 401, message: "Incorrect API key provided")) }
        }
        guard headers["content-type"]?.hasPrefix("application/json") == true,
              let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let model = body["model"] as? String, !model.isEmpty,
              body["max_tokens"] is Int || (dialect == .openai && body["max_completion_tokens"] is Int),
              let messages = body["messages"] as? [[String: Any]] else {
            return .failure(Refusal(status: 400, message: "model, max_tokens and messages are required"))
        }
        // OpenAI's reasoning and GPT-5-family models refuse the older field, with this message.
        if dialect == .openai, body["max_tokens"] != nil, ["o1", "o3", "o4", "gpt-5"].contains(where: { model.hasPrefix($0) }) {
            return .failure(Refusal(status: 400, message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."))
        }
        let text = String(decoding: data, as: UTF8.self)
        switch dialect {
        case .anthropic:
            guard let content = messages.first(where: { $0["role"] as? String == "user" })?["content"] as? [[String: Any]],
                  let imageIndex = content.firstIndex(where: { $0["type"] as? String == "image" }),
                  let source = content[imageIndex]["source"] as? [String: Any], source["type"] as? String == "base64",
                  let mediaType = source["media_type"] as? String, let encoded = source["data"] as? String else {
                return .failure(Refusal(status: 400, message: "messages.0.content: an image block with a base64 source is required"))
            }
            guard ["image/jpeg", "image/png", "image/gif", "image/webp"].contains(mediaType) else {
                return .failure(Refusal(status: 400, message: "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"))
            }
            guard encoded.utf8.count <= 5 * 1024 * 1024 else {
                return .failure(Refusal(status: 400, message: "messages.0.content.0.image.source.base64: image exceeds 5 MB maximum: \(encoded.utf8.count) bytes > 5242880 bytes"))
            }
            guard let image = Data(base64Encoded: encoded) else { return .failure(Refusal(status: 400, message: "invalid base64 data")) }
            if let size = JPEGInspection(Array(image)), max(size.width, size.height) > 8000 {
                return .failure(Refusal(status: 400, message: "messages.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels"))
            }
            guard mediaType != "image/jpeg" || image.starts(with: [0xFF, 0xD8, 0xFF]) else {
                return .failure(Refusal(status: 400, message: "Image does not match the provided media type image/jpeg"))
            }
            guard let question = content[(imageIndex + 1)...].first(where: { $0["type"] as? String == "text" })?["text"] as? String else {
                return .failure(Refusal(status: 400, message: "a text block after the image is expected"))
            }
            guard let tool = (body["tools"] as? [[String: Any]])?.first, let name = tool["name"] as? String,
                  let schema = tool["input_schema"] as? [String: Any], schema["type"] as? String == "object",
                  let choice = body["tool_choice"] as? [String: Any], choice["type"] as? String == "tool", choice["name"] as? String == name else {
                return .failure(Refusal(status: 400, message: "tools with input_schema and tool_choice {type: tool, name} are required"))
            }
            return .success(Received(headers: headers, model: model, mediaType: mediaType, image: Array(image), toolName: name,
                                     requiredFields: schema["required"] as? [String] ?? [], question: question, body: text))
        case .openai:
            guard let content = messages.first(where: { $0["role"] as? String == "user" })?["content"] as? [[String: Any]],
                  let url = (content.first(where: { $0["type"] as? String == "image_url" })?["image_url"] as? [String: Any])?["url"] as? String,
                  url.hasPrefix("data:"), let comma = url.firstIndex(of: ",") else {
                return .failure(Refusal(status: 400, message: "an image_url content part with a data URL is required"))
            }
            let prefix = url[url.index(url.startIndex, offsetBy: 5)..<comma]
            guard prefix.hasSuffix(";base64"), let image = Data(base64Encoded: String(url[url.index(after: comma)...])) else {
                return .failure(Refusal(status: 400, message: "the data URL must be base64"))
            }
            guard let question = content.first(where: { $0["type"] as? String == "text" })?["text"] as? String,
                  let format = body["response_format"] as? [String: Any], format["type"] as? String == "json_schema",
                  let schemaBlock = format["json_schema"] as? [String: Any], let name = schemaBlock["name"] as? String,
                  let schema = schemaBlock["schema"] as? [String: Any] else {
                return .failure(Refusal(status: 400, message: "a text part and response_format json_schema {name, schema} are required"))
            }
            if schemaBlock["strict"] as? Bool == true, let problem = Self.strictSchemaProblem(schema, context: []) {
                return .failure(Refusal(status: 400, message: "Invalid schema for response_format '\(name)': \(problem)"))
            }
            return .success(Received(headers: headers, model: model, mediaType: String(prefix.dropLast(7)), image: Array(image), toolName: name,
                                     requiredFields: schema["required"] as? [String] ?? [], question: question, body: text))
        }
    }

    /// Keywords OpenAI's strict structured outputs do not accept (Azure OpenAI and several local
    /// servers share the subset): a request naming one is refused with 400.
    package static let unsupportedStrictKeywords: Set<String> = [
        "minLength", "maxLength", "patternProperties", "unevaluatedProperties", "propertyNames",
        "minProperties", "maxProperties", "unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems",
    ]

    /// What a strict schema breaks, in OpenAI's words, or nil: an unsupported keyword, an object
    /// without `additionalProperties: false`, or a property missing from `required`.
    static func strictSchemaProblem(_ schema: [String: Any], context: [String]) -> String? {
        let place = "In context=(\(context.map { "'\($0)'" }.joined(separator: ", ")))"
        if let keyword = schema.keys.sorted().first(where: { unsupportedStrictKeywords.contains($0) }) {
            return "\(place), '\(keyword)' is not permitted."
        }
        if schema["type"] as? String == "object" {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            guard schema["additionalProperties"] as? Bool == false else {
                return "\(place), 'additionalProperties' is required to be supplied and to be false."
            }
            let required = Set(schema["required"] as? [String] ?? [])
            if let missing = properties.keys.sorted().first(where: { !required.contains($0) }) {
                return "\(place), 'required' is required to be supplied and to be an array including every key in properties. Missing '\(missing)'."
            }
            for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
                if let child = value as? [String: Any], let problem = strictSchemaProblem(child, context: context + ["properties", key]) {
                    return problem
                }
            }
        }
        if let items = schema["items"] as? [String: Any] {
            return strictSchemaProblem(items, context: context + ["items"])
        }
        return nil
    }

    /// The tokens the real API would bill for the image: about width * height / 750.
    package static func imageTokens(_ image: [UInt8]) -> Int {
        guard let info = JPEGInspection(image) else { return 0 }
        return (info.width * info.height + 749) / 750
    }

    private func successBody(answerObject: Any, answerText: String?, request: Received) -> String {
        let input = Self.imageTokens(request.image) + 420
        let object: [String: Any]
        switch dialect {
        case .anthropic:
            object = [
                "id": "msg_01StandIn", "type": "message", "role": "assistant", "model": request.model,
                "content": [["type": "tool_use", "id": "toolu_01StandIn", "name": request.toolName, "input": answerObject] as [String: Any]],
                "stop_reason": "tool_use", "stop_sequence": NSNull(),
                "usage": ["input_tokens": input, "output_tokens": 61],
            ]
        case .openai:
            let content: String
            if let answerText {
                content = answerText
            } else {
                content = String(decoding: (try? JSONSerialization.data(withJSONObject: answerObject, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
            }
            object = [
                "id": "chatcmpl-standin", "object": "chat.completion", "created": 1_763_850_000, "model": request.model,
                "choices": [["index": 0, "message": ["role": "assistant", "content": content, "refusal": NSNull()] as [String: Any],
                             "logprobs": NSNull(), "finish_reason": "stop"] as [String: Any]],
                "usage": ["prompt_tokens": input, "completion_tokens": 61, "total_tokens": input + 61],
            ]
        }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A 200 whose answer stopped for `reason`, with `partial` as what was written before it.
    private func stoppedBody(reason: String, partial: String?, request: Received) -> String {
        let input = Self.imageTokens(request.image) + 420
        let object: [String: Any]
        switch dialect {
        case .anthropic:
            var content: [[String: Any]] = []
            if let partial {
                // A tool call cut off at max_tokens: the API returns what of the input it parsed.
                let parsed = (try? JSONSerialization.jsonObject(with: Data(partial.utf8))) ?? [String: Any]()
                content.append(["type": "tool_use", "id": "toolu_01StandIn", "name": request.toolName, "input": parsed])
            } else if reason == "refusal" {
                content.append(["type": "text", "text": "I can't help with that."])
            }
            object = [
                "id": "msg_01StandIn", "type": "message", "role": "assistant", "model": request.model, "content": content,
                "stop_reason": reason, "stop_sequence": NSNull(), "usage": ["input_tokens": input, "output_tokens": 300],
            ]
        case .openai:
            object = [
                "id": "chatcmpl-standin", "object": "chat.completion", "created": 1_763_850_000, "model": request.model,
                "choices": [["index": 0, "message": ["role": "assistant", "content": partial.map { $0 as Any } ?? NSNull(), "refusal": NSNull()] as [String: Any],
                             "logprobs": NSNull(), "finish_reason": reason] as [String: Any]],
                "usage": ["prompt_tokens": input, "completion_tokens": 300, "total_tokens": input + 300],
            ]
        }
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    private func jsonResponse(status: Int, _ text: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private func errorResponse(status: Int, message: String) -> Response {
        let object: [String: Any]
        switch dialect {
        case .anthropic:
            let type = [400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
                        413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error"][status] ?? "api_error"
            object = ["type": "error", "error": ["type": type, "message": message]]
        case .openai:
            let type = [400: "invalid_request_error", 401: "invalid_request_error", 429: "rate_limit_exceeded"][status] ?? "server_error"
            object = ["error": ["message": message, "type": type, "param": NSNull(), "code": NSNull()] as [String: Any]]
        }
        return jsonResponse(status: status, String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }
}
