import AsyncHTTPClient
import Foundation
import NIOCore
import PhotoFormat
import PhotoValidation

/// Anthropic's Messages API: the preview as a base64 image block before the question, and forced
/// tool use, so the answer is a `tool_use` block whose `input` follows the schema.
package struct AnthropicProvider: ContentProvider {
    /// The API version header value.
    package static let apiVersion = "2023-06-01"

    /// `anthropic`.
    package let name = "anthropic"
    /// The model asked.
    package let model: String
    /// The base URL, such as `https://api.anthropic.com`.
    package let baseURL: String
    private let apiKey: APIKey
    private let maximumOutputTokens: Int
    private let transport: ProviderTransport

    /// A provider at `baseURL` asking `model`, authenticated by `apiKey`, over `client`.
    package init(baseURL: String, model: String, apiKey: APIKey, maximumOutputTokens: Int = 300, client: @escaping @Sendable @autoclosure () -> HTTPClient) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.maximumOutputTokens = maximumOutputTokens
        self.transport = ProviderTransport(client: client)
    }

    /// The request body for `preview` as a photo of `photoType`.
    func requestBody(_ preview: PreviewImage, as photoType: PhotoType) throws(ContentCheckError) -> Data {
        let body: [String: Any] = [
            "model": model,
            "max_tokens": maximumOutputTokens,
            "temperature": 0,
            "system": ContentPrompt.system,
            "tools": [[
                "name": ContentPrompt.toolName,
                "description": "Records what the photo shows.",
                "input_schema": ContentPrompt.schema,
            ] as [String: Any]],
            "tool_choice": ["type": "tool", "name": ContentPrompt.toolName],
            "messages": [[
                "role": "user",
                "content": [
                    ["type": "image", "source": ["type": "base64", "media_type": "image/jpeg", "data": Data(preview.jpeg).base64EncodedString()]] as [String: Any],
                    ["type": "text", "text": ContentPrompt.question(for: photoType)],
                ],
            ] as [String: Any]],
        ]
        do {
            return try JSONSerialization.data(withJSONObject: body)
        } catch {
            throw .malformedResponse("the request could not be encoded: \(error)")
        }
    }

    /// Sends one Messages request and reads the tool call.
    package func classify(_ preview: PreviewImage, as photoType: PhotoType, deadline: NIODeadline) async throws(ContentCheckError) -> ProviderAnswer {
        let data = try await transport.postJSON(
            baseURL + "/v1/messages",
            headers: [("x-api-key", apiKey.value), ("anthropic-version", Self.apiVersion)],
            body: try requestBody(preview, as: photoType),
            deadline: deadline
        )
        return try Self.answer(from: data)
    }

    /// The labels and usage in a Messages API response body.
    static func answer(from data: Data) throws(ContentCheckError) -> ProviderAnswer {
        guard let message = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              message["type"] as? String == "message",
              let content = message["content"] as? [[String: Any]] else {
            throw .malformedResponse("not a Messages API message: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        let usage = message["usage"] as? [String: Any]
        // Every stop_reason the API documents, answered on purpose: only a finished tool call is read.
        let stopReason = message["stop_reason"] as? String ?? "none"
        switch stopReason {
        case "max_tokens", "model_context_window_exceeded":
            throw .truncated("stop_reason \(stopReason): the tool input was cut off; raise content.max_output_tokens")
        case "refusal":
            throw .refused("stop_reason refusal: the model declined to classify the photo")
        case "pause_turn":
            // Only server tools pause a turn, and none are offered: say so rather than guess.
            throw .malformedResponse("stop_reason pause_turn, though no server tool was offered")
        default:
            break
        }
        guard let call = content.first(where: { $0["type"] as? String == "tool_use" }) else {
            throw .schemaViolation("no tool_use block (stop_reason \(stopReason))")
        }
        guard call["name"] as? String == ContentPrompt.toolName, let input = call["input"],
              let json = try? JSONSerialization.data(withJSONObject: input, options: [.fragmentsAllowed]) else {
            throw .schemaViolation("the tool_use block is not a call of \(ContentPrompt.toolName) with an input")
        }
        return ProviderAnswer(
            labels: try ContentPrompt.labels(fromJSON: json),
            inputTokens: usage?["input_tokens"] as? Int,
            outputTokens: usage?["output_tokens"] as? Int
        )
    }
}
