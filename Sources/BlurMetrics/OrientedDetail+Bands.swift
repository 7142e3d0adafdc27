extension OrientedDetail {
    /// The integer sums of one band of tile rows, measured apart from the others so that the bands
    /// of one plane may be measured at the same time (`init(plane:tileSize:bands:noiseSigma:)`).
    public struct TileBand: Sendable {
        /// The tile rows the band holds.
        public let tileRows: Range<Int>
        /// Per orientation, per tile of the band (row by row): summed squared second differences.
        let curvature: [[Int64]]
        /// Per orientation, per tile of the band: summed squared first differences.
        let gradient: [[Int64]]
    }

    /// Band `index` of `count` nearly equal bands of `plane`'s tile rows in tiles of `tileSize`.
    public static func band(_ index: Int, of count: Int, plane: LumaPlane, tileSize: Int = defaultTileSize) -> TileBand {
        precondition(count > 0 && (0..<count).contains(index), "band \(index) of \(count)")
        let side = side(of: plane, tileSize: tileSize)
        let rows = plane.height / side
        let tileRows = (index * rows / count)..<((index + 1) * rows / count)
        let sums = plane.pixels.withUnsafeBufferPointer { pixels in
            tileSums(pixels: pixels.baseAddress!, width: plane.width, height: plane.height, tileSize: side, tileRows: tileRows)
        }
        return TileBand(tileRows: tileRows, curvature: sums.curvature, gradient: sums.gradient)
    }
}
