import BlurModel

/// The tiles the blur model evaluated on a photo's first analysis plane, with that plane's size
/// and the tile side, so a report can draw them over a thumbnail of the displayed photo. It is not
/// part of the answer's JSON (`ValidationDetails.blurTileMap`).
public struct BlurTileMap: Sendable, Equatable {
    /// Width of the plane the tiles are on, in stored (not EXIF-rotated) orientation.
    public var planeWidth: Int
    /// Height of the plane the tiles are on.
    public var planeHeight: Int
    /// The tile side in plane pixels.
    public var tileSize: Int
    /// The evaluated tiles, their corners in plane coordinates.
    public var tiles: [BlurTileEstimate]

    /// A map of `tiles` on a `planeWidth` by `planeHeight` plane, in tiles of `tileSize`.
    public init(planeWidth: Int, planeHeight: Int, tileSize: Int, tiles: [BlurTileEstimate]) {
        self.planeWidth = planeWidth
        self.planeHeight = planeHeight
        self.tileSize = tileSize
        self.tiles = tiles
    }
}
