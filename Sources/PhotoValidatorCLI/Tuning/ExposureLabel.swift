/// How a photo of the labelled exposure set is labelled (`scripts/make-exposure-set`).
enum ExposureLabel: String, Sendable, CaseIterable {
    /// Exposed well enough to make out the scene, dim or bright.
    case usable
    /// Too dark to make out.
    case tooDark = "too_dark"
    /// Washed out.
    case overexposed
}
