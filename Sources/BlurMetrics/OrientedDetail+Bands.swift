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
        plane.pixels.withUnsafeBufferPointer { pixels in
            band(index, of: count, pixels: pixels.baseAddress!, width: plane.width, height: plane.height, tileSize: tileSize)
        }
    }

    /// Band `index` of `count` of a `width` x `height` plane at `pixels`, of which only the first
    /// `rowsRead(byBand:of:width:height:tileSize:)` rows are read.
    static func band(_ index: Int, of count: Int, pixels: UnsafePointer<UInt8>, width: Int, height: Int, tileSize: Int) -> TileBand {
        let (side, tileRows) = tiles(ofBand: index, of: count, width: width, height: height, tileSize: tileSize)
        let sums = tileSums(pixels: pixels, width: width, height: height, tileSize: side, tileRows: tileRows)
        return TileBand(tileRows: tileRows, curvature: sums.curvature, gradient: sums.gradient)
    }

    /// The rows of a `width` x `height` plane that band `index` of `count` reads: its tiles' rows
    /// and the two below them that the smoothing and the differences reach.
    static func rowsRead(byBand index: Int, of count: Int, width: Int, height: Int, tileSize: Int) -> Int {
        let (side, tileRows) = tiles(ofBand: index, of: count, width: width, height: height, tileSize: tileSize)
        return tileRows.isEmpty ? 0 : min(height, tileRows.upperBound * side + 2)
    }

    /// The tile side and the tile rows of band `index` of `count` of a `width` x `height` plane.
    private static func tiles(ofBand index: Int, of count: Int, width: Int, height: Int, tileSize: Int) -> (side: Int, rows: Range<Int>) {
        precondition(count > 0 && (0..<count).contains(index), "band \(index) of \(count)")
        let side = side(width: width, height: height, tileSize: tileSize)
        let rows = height / side
        return (side, (index * rows / count)..<((index + 1) * rows / count))
    }
}
