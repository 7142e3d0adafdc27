/// The model's answer for one plane: the photo's probability of blur, pooled over the sharpest
/// tiles, and every evaluated tile for the report's map.
public struct BlurModelEstimate: Sendable, Equatable, Hashable, Codable {
    /// The mean of the lowest `pool_sharpest` tile probabilities: the sharpest region decides.
    public var probability: Double
    /// The tile side in analysis-plane pixels.
    public var tileSize: Int
    /// The evaluated tiles, in row-major order.
    public var tiles: [BlurTileEstimate]

    /// An estimate's figures.
    public init(probability: Double, tileSize: Int, tiles: [BlurTileEstimate]) {
        self.probability = probability
        self.tileSize = tileSize
        self.tiles = tiles
    }

    /// The mean of the `pool` lowest of `probabilities` (all of them when fewer), or nil for none.
    public static func pooled(_ probabilities: [Double], sharpest pool: Int) -> Double? {
        guard !probabilities.isEmpty, pool > 0 else { return nil }
        let kept = probabilities.sorted().prefix(pool)
        return kept.reduce(0, +) / Double(kept.count)
    }
}
