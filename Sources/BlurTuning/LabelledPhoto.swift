import PhotoValidation

/// A photo with a human blur label, for tuning.
package struct LabelledPhoto: Sendable, Equatable {
    /// The two labels.
    package enum Label: String, Sendable, Codable {
        /// Sharp enough for a designer.
        case sharp
        /// Too blurry: should be retaken.
        case blurry
    }

    /// Which part of a labelled set a photo belongs to.
    package enum Split: String, Sendable, Codable {
        /// Thresholds are chosen on these.
        case tune
        /// Held aside: never used to choose, only to report how the choice does.
        case held
    }

    /// The file.
    package let path: String
    /// Its label.
    package let label: Label
    /// The photo type it is judged as.
    package let photoType: PhotoType
    /// The part of the set it belongs to.
    package let split: Split

    /// Creates a labelled photo.
    package init(path: String, label: Label, photoType: PhotoType, split: Split = .tune) {
        self.path = path
        self.label = label
        self.photoType = photoType
        self.split = split
    }
}
