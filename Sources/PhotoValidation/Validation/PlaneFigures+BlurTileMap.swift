import BlurModel

extension PlaneFigures {
    /// The blur model's tiles on this plane as a map, nil when it evaluated none.
    public var blurTileMap: BlurTileMap? {
        guard let blurTiles, !blurTiles.isEmpty else { return nil }
        return BlurTileMap(planeWidth: analysisWidth, planeHeight: analysisHeight, tileSize: BlurModel.shipped.tileSize, tiles: blurTiles)
    }
}
