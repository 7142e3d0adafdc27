/// What the exposure check found: usable, too dark or washed out.
public enum ExposureVerdict: String, Sendable, Codable, CaseIterable {
    /// The scene can be made out.
    case usable
    /// The scene is too dark to make out.
    case tooDark = "too_dark"
    /// The scene is washed out by light.
    case overexposed
}
