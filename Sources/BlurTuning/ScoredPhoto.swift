import PhotoValidation

/// A labelled photo and its blur score.
package struct ScoredPhoto: Sendable, Equatable, Codable {
    /// The file.
    package let path: String
    /// Its label.
    package let label: LabelledPhoto.Label
    /// The blur score at the analysis scale.
    package let score: Double

    /// Creates a scored photo.
    package init(path: String, label: LabelledPhoto.Label, score: Double) {
        self.path = path
        self.label = label
        self.score = score
    }
}
