/// The wire protocols a content classifier can speak.
package enum ContentProviderKind: String, Sendable, CaseIterable {
    /// No provider configured.
    case none
    /// Anthropic's Messages API, with forced tool use.
    case anthropic
    /// Any OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama, llama.cpp), with a
    /// JSON-schema response format.
    case openai
}
