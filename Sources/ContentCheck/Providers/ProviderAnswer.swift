import PhotoValidation

/// One successful answer of a provider: the labels and the tokens it billed.
public struct ProviderAnswer: Sendable, Equatable {
    /// The model's structured answer.
    public let labels: ContentLabels
    /// Input tokens the provider reported (image and prompt).
    public let inputTokens: Int?
    /// Output tokens the provider reported.
    public let outputTokens: Int?

    /// Creates an answer.
    public init(labels: ContentLabels, inputTokens: Int?, outputTokens: Int?) {
        self.labels = labels
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }
}
