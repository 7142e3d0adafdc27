import PhotoValidation

/// A labelled photo and its blur score.
public struct ScoredPhoto: Sendable, Equatable, Codable {
    /// The file.
    public let path: String
    /// Its label.
    public let label: LabelledPhoto.Label
    /// The blur score at the analysis scale.
    public let score: Double

    /// Creates a scored photo.
    public init(path: String, label: LabelledPhoto.Label, score: Double) {
        self.path = path
        self.label = label
        self.score = score
    }
}
