import ContentCheck
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PhotoValidation
import TestFixtures
import Testing

/// What the real providers accept and answer, as their API references and official SDKs state it
/// (docs/content-check.md, "Checked against the providers"): the stand-in refuses what they refuse,
/// and every way an answer can stop short gets a deliberate answer.
@Suite("The providers' contracts, as their references and SDKs state them", .integration, .timeLimit(.minutes(10)))
struct ProviderContractTests {
    /// Posts `body` with `headers` to a stand-in for `dialect` and returns the status and body.
    private func post(_ dialect: ProviderStandIn.Dialect, _ body: [String: Any], headers: HTTPFields) async throws -> (Int, String) {
        let standIn = ProviderStandIn(dialect) { _, _ in .labels(scene: "interior_room", mainSubject: "space", designRelated: true, reason: "r") }
        let app = Application(router: standIn.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await app.test(.live) { client in
            let path = dialect == .anthropic ? "/v1/messages" : "/v1/chat/completions"
            let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(data: data))
            return (Int(response.status.code), String(buffer: response.body))
        }
    }

    private static let anthropicHeaders: HTTPFields = [.contentType: "application/json", HTTPField.Name("x-api-key")!: "test-key", HTTPField.Name("anthropic-version")!: "2023-06-01"]
    private static let openAIHeaders: HTTPFields = [.contentType: "application/json", .authorization: "Bearer test-key"]

    private static func anthropicBody(image: [UInt8]) -> [String: Any] {
        [
            "model": "claude-haiku-4-5-20251001", "max_tokens": 300,
            "tools": [["name": "t", "input_schema": ["type": "object"]] as [String: Any]], "tool_choice": ["type": "tool", "name": "t"],
            "messages": [["role": "user", "content": [
                ["type": "image", "source": ["type": "base64", "media_type": "image/jpeg", "data": Data(image).base64EncodedString()]] as [String: Any],
                ["type": "text", "text": "q"],
            ]] as [String: Any]],
        ]
    }

    private static func openAIBody(model: String = "qwen2.5-vl", limit: String = "max_tokens", schema: [String: Any] = ContentPrompt.schema) -> [String: Any] {
        [
            "model": model, limit: 300,
            "messages": [["role": "user", "content": [
                ["type": "image_url", "image_url": ["url": "data:image/jpeg;base64," + Data(cupsPreview.jpeg).base64EncodedString()]] as [String: Any],
                ["type": "text", "text": "q"],
            ]] as [String: Any]],
            "response_format": ["type": "json_schema", "json_schema": ["name": "n", "strict": true, "schema": schema] as [String: Any]],
        ]
    }

    /// A JPEG header claiming `width` x `height` (SOF0), enough for a size check.
    private static func jpegHeader(width: Int, height: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
         0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
    }

    @Test("the stand-in refuses, with 400, a strict schema naming maxLength, max_tokens for a GPT-5 model, a missing anthropic-version, an image over 8000 px or over 5 MB")
    func standInRefusesWhatProvidersRefuse() async throws {
        var lengthBound = ContentPrompt.schema
        var properties = lengthBound["properties"] as! [String: Any]
        properties["reason"] = ["type": "string", "maxLength": 300]
        lengthBound["properties"] = properties
        let (strict, strictBody) = try await post(.openai, Self.openAIBody(schema: lengthBound), headers: Self.openAIHeaders)
        #expect(strict == 400 && strictBody.contains("'maxLength' is not permitted"), "\(strictBody)")
        let (ours, _) = try await post(.openai, Self.openAIBody(), headers: Self.openAIHeaders)
        #expect(ours == 200, "the schema the provider sends is inside the strict subset")

        let (old, oldBody) = try await post(.openai, Self.openAIBody(model: "gpt-5-mini"), headers: Self.openAIHeaders)
        #expect(old == 400 && oldBody.contains("Use 'max_completion_tokens' instead"))
        let (new, _) = try await post(.openai, Self.openAIBody(model: "gpt-5-mini", limit: "max_completion_tokens"), headers: Self.openAIHeaders)
        #expect(new == 200)

        var versionless = Self.anthropicHeaders
        versionless[HTTPField.Name("anthropic-version")!] = nil
        let (noVersion, _) = try await post(.anthropic, Self.anthropicBody(image: cupsPreview.jpeg), headers: versionless)
        #expect(noVersion == 400)
        let (wide, wideBody) = try await post(.anthropic, Self.anthropicBody(image: Self.jpegHeader(width: 8001, height: 600)), headers: Self.anthropicHeaders)
        #expect(wide == 400 && wideBody.contains("8000 pixels"))
        let (large, largeBody) = try await post(.anthropic, Self.anthropicBody(image: Self.jpegHeader(width: 800, height: 600) + [UInt8](repeating: 0, count: 4 << 20)), headers: Self.anthropicHeaders)
        #expect(large == 400 && largeBody.contains("5 MB"))
        let (fine, _) = try await post(.anthropic, Self.anthropicBody(image: cupsPreview.jpeg), headers: Self.anthropicHeaders)
        #expect(fine == 200)
    }

    @Test("the output limit goes in max_completion_tokens for OpenAI's own hosts and in max_tokens for other servers, or as configured")
    func tokenLimitField() async throws {
        #expect(TokenLimitField.default(forBaseURL: "https://api.openai.com") == .maxCompletionTokens)
        #expect(TokenLimitField.default(forBaseURL: "https://team.openai.azure.com/openai/v1") == .maxCompletionTokens)
        #expect(TokenLimitField.default(forBaseURL: "http://127.0.0.1:8000") == .maxTokens)
        try await withStandIn(.openai, configure: { $0.model = "gpt-5-mini"; $0.tokenLimitField = .maxCompletionTokens }, script: { _, _ in labels("interior_room") }) { classifier, standIn, _ in
            #expect(await check(classifier).details.verdict == "pass")
            #expect(standIn.received.first?.body.contains("\"max_completion_tokens\":300") == true)
        }
        try await withStandIn(.openai, configure: { $0.model = "gpt-5-mini"; $0.tokenLimitField = .maxTokens }, script: { _, _ in labels("interior_room") }) { classifier, _, _ in
            let result = await check(classifier)
            #expect(result.details.error == "bad_request" && result.details.errorDetail?.contains("max_completion_tokens") == true)
        }
    }

    @Test("a reason of 2,000 characters still yields the verdict, cut to 300", arguments: [ProviderStandIn.Dialect.anthropic, .openai])
    func longReason(dialect: ProviderStandIn.Dialect) async throws {
        let reason = String(repeating: "a long reason ", count: 143).prefix(2000)
        try await withStandIn(dialect, script: { _, _ in labels("room_dominated_by_people", "people", design: false, reason: String(reason)) }) { classifier, _, _ in
            let result = await check(classifier)
            #expect(result.failure == .tooManyPeople)
            #expect(result.details.labels?.reason.count == ContentPrompt.maximumReasonLength)
            #expect(result.details.labels?.reason.hasSuffix("…") == true)
        }
    }

    @Test("an answer that stops short has its own class and is not retried", arguments: [
        (ProviderStandIn.Dialect.anthropic, "max_tokens", #"{"scene":"interior_room","main_subject":"spa"#, "truncated") as (ProviderStandIn.Dialect, String, String?, String),
        (.anthropic, "model_context_window_exceeded", nil, "truncated"),
        (.anthropic, "refusal", nil, "refused"),
        (.anthropic, "pause_turn", nil, "malformed_response"),
        (.openai, "length", #"{"scene":"interior_room","main_subj"#, "truncated"),
        (.openai, "content_filter", nil, "content_filtered"),
    ])
    func stoppedShort(dialect: ProviderStandIn.Dialect, reason: String, partial: String?, errorClass: String) async throws {
        try await withStandIn(dialect, configure: { $0.policy = .failClosed }, script: { _, _ in .stopped(reason: reason, partial: partial) }) { classifier, _, events in
            let result = await check(classifier)
            #expect(result.details.error == errorClass)
            #expect(result.failure == .contentCheckUnavailable, "never a pass under fail-closed")
            #expect(result.details.attempts == 1 && events.retries == 0)
        }
    }

    @Test("retry-after-ms wins over retry-after, and x-should-retry wins over the status, as the SDKs do")
    func retryHeaders() async throws {
        try await withStandIn(.openai, script: { _, index in
            index == 0 ? .errorWithHeaders(status: 429, headers: ["retry-after-ms": "20", "retry-after": "600"]) : labels("interior_room")
        }) { classifier, _, events in
            let result = await check(classifier)
            #expect(result.details.verdict == "pass" && events.retries == 1, "a 600 s retry-after would have passed the 30 s deadline")
        }
        try await withStandIn(.anthropic, script: { _, _ in .errorWithHeaders(status: 500, headers: ["x-should-retry": "false"]) }) { classifier, _, events in
            let result = await check(classifier)
            #expect(result.details.error == "server_error" && result.details.attempts == 1 && events.retries == 0)
        }
        try await withStandIn(.anthropic, script: { _, index in
            index == 0 ? .errorWithHeaders(status: 409, headers: ["x-should-retry": "true"]) : labels("interior_room")
        }) { classifier, _, events in
            #expect(await check(classifier).details.verdict == "pass" && events.retries == 1)
        }
    }
}
