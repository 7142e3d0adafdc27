import PhotoValidation

/// One successful answer of a provider: the labels and the tokens it billed.
package struct ProviderAnswer: Sendable, Equatable {
    /// The model's structured answer.
    package let labels: ContentLabels
    /// Input tokens the provider reported (image and prompt).
    package let inputTokens: Int?
    /// Output tokens the provider reported.
    package let outputTokens: Int?

    /// Creates an answer.
    package init(labels: ContentLabels, inputTokens: Int?, outputTokens: Int?) {
        self.labels = labels
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }
}
