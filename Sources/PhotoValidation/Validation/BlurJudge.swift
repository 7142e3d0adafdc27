/// Which measure decides whether a photo is `blurry` (`blur.judge`).
public enum BlurJudge: String, Sendable, Codable, CaseIterable {
    /// The blur score under the photo type's `blur_threshold` (`details.blur_score`).
    case score
    /// The blur model's probability at or above the photo type's probability threshold
    /// (`details.blur_probability`, issue 64); the score decides a plane too small for one tile.
    case model
}
