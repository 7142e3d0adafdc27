import AsyncHTTPClient
import PhotoFormat
import PhotoValidation

extension ContentClassifier {
    /// The classifier `configuration` describes, asking for previews within `previews` and calling its
    /// provider over `client` (asked for at each call, so a lazily made one is made only when
    /// needed), or nil when the content check is off.
    package static func make(
        configuration: ContentCheckConfiguration,
        previews: PreviewBounds,
        client: @escaping @Sendable @autoclosure () -> HTTPClient,
        events: @escaping @Sendable (ContentCheckEvent) -> Void = { _ in }
    ) -> ContentClassifier? {
        guard configuration.policy != .off else { return nil }
        let provider: any ContentProvider
        switch configuration.provider {
        case .none:
            return nil
        case .anthropic:
            guard let key = configuration.apiKey else { return nil }
            provider = AnthropicProvider(baseURL: configuration.baseURL, model: configuration.model, apiKey: key,
                                         maximumOutputTokens: configuration.maximumOutputTokens, client: client())
        case .openai:
            provider = OpenAICompatibleProvider(baseURL: configuration.baseURL, model: configuration.model, apiKey: configuration.apiKey,
                                                maximumOutputTokens: configuration.maximumOutputTokens, tokenLimitField: configuration.tokenLimitField,
                                                responseFormat: configuration.responseFormat, client: client())
        }
        return ContentClassifier(configuration: configuration, provider: provider, previews: previews, events: events)
    }
}
