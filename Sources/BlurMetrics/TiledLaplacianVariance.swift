/// The blur score that decides: the Laplacian variance of each square tile of a (lightly
/// denoised) plane, aggregated by a high percentile.
///
/// A photo with a sharp subject and a soft background, or a sharp room with plain walls, has some
/// tiles with strong detail: a high percentile of tile variances sees them, where one global
/// variance averages them away. Tiles are whole squares from the top-left corner.
public enum TiledLaplacianVariance {
    /// The default tile side at the 1024 px analysis scale.
    public static let defaultTileSize = 48
    /// The default percentile of tile variances.
    public static let defaultPercentile = 95.0

    /// The `percentile` (0-100, linear interpolation between order statistics) of the Laplacian
    /// variances of the `tileSize` x `tileSize` tiles of `plane`; the global variance when the
    /// plane holds no whole tile.
    public static func score(of plane: LumaPlane, tileSize: Int = defaultTileSize, percentile: Double = defaultPercentile) -> Double {
        let variances = tileVariances(of: plane, tileSize: tileSize)
        guard !variances.isEmpty else { return LaplacianVariance.variance(of: plane) }
        return Percentile.linear(variances.sorted(), percentile)
    }

    /// The Laplacian variance of every whole tile, row by row.
    public static func tileVariances(of plane: LumaPlane, tileSize: Int) -> [Double] {
        let width = plane.width, height = plane.height
        let columns = width / tileSize, rows = height / tileSize
        guard columns > 0, rows > 0 else { return [] }
        var sums = [Int64](repeating: 0, count: columns)
        var squares = [Int64](repeating: 0, count: columns)
        var variances: [Double] = []
        variances.reserveCapacity(columns * rows)
        plane.pixels.withUnsafeBufferPointer { buffer in
            let pixels = buffer.baseAddress!
            for tileRow in 0..<rows {
                for column in 0..<columns { sums[column] = 0; squares[column] = 0 }
                for y in (tileRow * tileSize)..<((tileRow + 1) * tileSize) {
                    let center = pixels + y * width
                    let above = pixels + LaplacianVariance.reflect101(y - 1, count: height) * width
                    let below = pixels + LaplacianVariance.reflect101(y + 1, count: height) * width
                    for column in 0..<columns {
                        let segment = LaplacianVariance.segmentSums(above: above, center: center, below: below, width: width,
                                                                    from: column * tileSize, to: (column + 1) * tileSize)
                        sums[column] &+= segment.sum
                        squares[column] &+= segment.sumOfSquares
                    }
                }
                for column in 0..<columns {
                    variances.append(LaplacianStatistics(count: tileSize * tileSize, sum: sums[column], sumOfSquares: squares[column]).variance)
                }
            }
        }
        return variances
    }
}
