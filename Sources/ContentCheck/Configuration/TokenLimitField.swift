import Foundation

/// The chat-completions field that limits the answer's length. OpenAI's reasoning and GPT-5-family
/// models refuse `max_tokens` and want `max_completion_tokens`; vLLM, llama.cpp, Ollama and
/// llama-cpp-python all read `max_tokens`, and some of them ignore the newer name.
package enum TokenLimitField: String, Sendable, CaseIterable {
    /// `max_completion_tokens`: OpenAI's current name (Azure OpenAI's too).
    case maxCompletionTokens = "max_completion_tokens"
    /// `max_tokens`: what every OpenAI-compatible server reads.
    case maxTokens = "max_tokens"

    /// `max_completion_tokens` for OpenAI's own and Azure OpenAI's hosts, `max_tokens` for any
    /// other (self-hosted) server.
    package static func `default`(forBaseURL baseURL: String) -> TokenLimitField {
        let host = URL(string: baseURL)?.host?.lowercased() ?? ""
        return host == "api.openai.com" || host.hasSuffix(".openai.azure.com") ? .maxCompletionTokens : .maxTokens
    }
}
