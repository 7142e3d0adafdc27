/// A photo with a human blur label, for tuning.
public struct LabelledPhoto: Sendable, Equatable {
    /// The two labels.
    public enum Label: String, Sendable, Codable {
        /// Sharp enough for a designer.
        case sharp
        /// Too blurry: should be retaken.
        case blurry
    }

    /// The file.
    public let path: String
    /// Its label.
    public let label: Label
    /// The photo type it is judged as.
    public let photoType: PhotoType

    /// Creates a labelled photo.
    public init(path: String, label: Label, photoType: PhotoType) {
        self.path = path
        self.label = label
        self.photoType = photoType
    }
}
