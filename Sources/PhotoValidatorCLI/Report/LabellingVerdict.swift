/// What the labelling page shows of a photo's answer.
struct LabellingVerdict: Sendable {
    /// The photo type.
    let type: String
    /// Displayed size.
    let width: Int?, height: Int?
    /// `passed` or the failure codes.
    let verdict: String
}
