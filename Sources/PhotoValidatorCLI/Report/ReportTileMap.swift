import PhotoValidation

/// A photo's blur tile map as the report pages' data carries it: the plane the tiles are on, its
/// EXIF orientation (the thumbnail is shown rotated, the plane is not) and each tile's corner and
/// probability of blur. The pages draw it as an SVG over the thumbnail (`HTMLPage.sharedScript`).
struct ReportTileMap: Encodable, Equatable {
    /// One evaluated tile.
    struct Tile: Encodable, Equatable {
        /// The tile's left and top edges in plane pixels.
        let x: Int, y: Int
        /// The blur model's probability that the tile is blurred.
        let p: Double
    }

    /// The plane's width and height in stored orientation.
    let width: Int, height: Int
    /// The tile side in plane pixels.
    let tileSize: Int
    /// The EXIF orientation (1 to 8) that turns the plane into the displayed photo.
    let orientation: Int
    /// The tiles.
    let tiles: [Tile]

    /// The map of `details`, nil when the blur model evaluated no tile.
    init?(_ details: ValidationDetails) {
        guard let map = details.blurTileMap, !map.tiles.isEmpty, map.planeWidth > 0, map.planeHeight > 0, map.tileSize > 0 else { return nil }
        width = map.planeWidth
        height = map.planeHeight
        tileSize = map.tileSize
        orientation = (1...8).contains(details.orientation ?? 1) ? details.orientation ?? 1 : 1
        tiles = map.tiles.map { Tile(x: $0.x, y: $0.y, p: $0.probability.isFinite ? min(1, max(0, $0.probability)) : 0) }
    }
}
