/// How an OpenAI-compatible request asks for an answer that follows `ContentPrompt.schema`.
package enum ResponseFormatStyle: String, Sendable, CaseIterable {
    /// `{"type":"json_schema","json_schema":{"name","strict":true,"schema"}}`: OpenAI's structured
    /// outputs, also read by vLLM, llama.cpp's llama-server and Ollama.
    case jsonSchema = "json_schema"
    /// `{"type":"json_object","schema":{...}}`: the form llama-cpp-python's server takes (0.3.x
    /// refuses `json_schema` with a validation error) and turns into a grammar.
    case jsonObject = "json_object"

    /// The request's `response_format` field.
    var requestField: [String: Any] {
        switch self {
        case .jsonSchema:
            ["type": "json_schema", "json_schema": ["name": ContentPrompt.toolName, "strict": true, "schema": ContentPrompt.schema] as [String: Any]]
        case .jsonObject:
            ["type": "json_object", "schema": ContentPrompt.schema]
        }
    }
}
