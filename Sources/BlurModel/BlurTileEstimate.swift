/// What the model found in one evaluated tile: where it is, its detail score and the probability
/// that it is blurred.
public struct BlurTileEstimate: Sendable, Equatable, Hashable, Codable {
    /// The tile's left edge in the analysis plane.
    public var x: Int
    /// The tile's top edge in the analysis plane.
    public var y: Int
    /// The detail score that chose the tile (`BlurTileGrid.detailScores`).
    public var detail: Int
    /// The network's output.
    public var logit: Float
    /// `1 / (1 + exp(-logit))`.
    public var probability: Double

    /// A tile's figures.
    public init(x: Int, y: Int, detail: Int, logit: Float, probability: Double) {
        self.x = x
        self.y = y
        self.detail = detail
        self.logit = logit
        self.probability = probability
    }
}
