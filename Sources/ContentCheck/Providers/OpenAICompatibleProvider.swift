import AsyncHTTPClient
import Foundation
import NIOCore
import PhotoFormat
import PhotoValidation

/// Any OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama, llama.cpp's server): the
/// preview as an `image_url` data URL, and a strict `json_schema` response format, so the message
/// content is a JSON object following the schema.
package struct OpenAICompatibleProvider: ContentProvider {
    /// `openai`.
    package let name = "openai"
    /// The model asked.
    package let model: String
    /// The base URL, such as `https://api.openai.com` or `http://127.0.0.1:8000` (vLLM).
    package let baseURL: String
    private let apiKey: APIKey?
    private let maximumOutputTokens: Int
    /// The request field that carries the output limit.
    package let tokenLimitField: TokenLimitField
    /// How the request asks for the schema.
    package let responseFormat: ResponseFormatStyle
    private let transport: ProviderTransport

    /// A provider at `baseURL` asking `model`, with a bearer `apiKey` when the server needs one,
    /// limiting the answer with `tokenLimitField` (by default the one `baseURL`'s server wants).
    package init(baseURL: String, model: String, apiKey: APIKey?, maximumOutputTokens: Int = 300, tokenLimitField: TokenLimitField? = nil,
                responseFormat: ResponseFormatStyle = .jsonSchema, client: @escaping @Sendable @autoclosure () -> HTTPClient) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.maximumOutputTokens = maximumOutputTokens
        self.tokenLimitField = tokenLimitField ?? TokenLimitField.default(forBaseURL: baseURL)
        self.responseFormat = responseFormat
        self.transport = ProviderTransport(client: client)
    }

    /// The chat-completions URL: `{base}/v1/chat/completions`, or `{base}/chat/completions` when
    /// the base already ends in a version (`.../v1`).
    var endpoint: String {
        let last = baseURL.split(separator: "/").last ?? ""
        let versioned = last.count >= 2 && last.first == "v" && last.dropFirst().allSatisfy(\.isNumber)
        return baseURL + (versioned ? "/chat/completions" : "/v1/chat/completions")
    }

    /// The request body for `preview` as a photo of `photoType`.
    func requestBody(_ preview: PreviewImage, as photoType: PhotoType) throws(ContentCheckError) -> Data {
        let body: [String: Any] = [
            "model": model,
            tokenLimitField.rawValue: maximumOutputTokens,
            "temperature": 0,
            "messages": [
                ["role": "system", "content": ContentPrompt.system],
                [
                    "role": "user",
                    "content": [
                        ["type": "image_url", "image_url": ["url": "data:image/jpeg;base64," + Data(preview.jpeg).base64EncodedString()]] as [String: Any],
                        ["type": "text", "text": ContentPrompt.question(for: photoType)],
                    ],
                ] as [String: Any],
            ],
            "response_format": responseFormat.requestField,
        ]
        do {
            return try JSONSerialization.data(withJSONObject: body)
        } catch {
            throw .malformedResponse("the request could not be encoded: \(error)")
        }
    }

    /// Sends one chat-completions request and reads the JSON answer.
    package func classify(_ preview: PreviewImage, as photoType: PhotoType, deadline: NIODeadline) async throws(ContentCheckError) -> ProviderAnswer {
        let data = try await transport.postJSON(
            endpoint,
            headers: apiKey.map { [("authorization", "Bearer \($0.value)")] } ?? [],
            body: try requestBody(preview, as: photoType),
            deadline: deadline
        )
        return try Self.answer(from: data)
    }

    /// The labels and usage in a chat-completions response body.
    static func answer(from data: Data) throws(ContentCheckError) -> ProviderAnswer {
        guard let completion = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let choices = completion["choices"] as? [[String: Any]],
              let message = choices.first?["message"] as? [String: Any] else {
            throw .malformedResponse("not a chat completion: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        if let refusal = message["refusal"] as? String {
            throw .refused("the model refused: \(refusal.prefix(200))")
        }
        // Every finish_reason but "stop" means the JSON cannot be trusted whole.
        let finishReason = choices.first?["finish_reason"] as? String ?? "none"
        switch finishReason {
        case "length":
            throw .truncated("finish_reason length: the answer was cut off; raise content.max_output_tokens")
        case "content_filter":
            throw .contentFiltered("finish_reason content_filter: the provider's filter withheld the answer")
        default:
            break
        }
        guard let content = message["content"] as? String else {
            throw .schemaViolation("the message has no text content (finish_reason \(finishReason))")
        }
        let usage = completion["usage"] as? [String: Any]
        return ProviderAnswer(
            labels: try ContentPrompt.labels(fromJSON: Data(content.utf8)),
            inputTokens: usage?["prompt_tokens"] as? Int,
            outputTokens: usage?["completion_tokens"] as? Int
        )
    }
}
