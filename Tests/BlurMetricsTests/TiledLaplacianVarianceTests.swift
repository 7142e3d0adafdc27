import Testing
@testable import BlurMetrics

@Suite("Tiled score and denoising")
struct TiledLaplacianVarianceTests {
    @Test("each tile's variance is the variance of the whole-plane responses inside it")
    func tilesMatchDefinition() {
        let plane = randomPlane(width: 100, height: 70, seed: 3)
        let tile = 32
        let variances = TiledLaplacianVariance.tileVariances(of: plane, tileSize: tile)
        #expect(variances.count == 3 * 2)
        // Reference: the responses of the whole plane (reflect-101 at the plane's edges only).
        func reflect(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i) }
        func at(_ x: Int, _ y: Int) -> Double { Double(plane.pixels[reflect(y, plane.height) * plane.width + reflect(x, plane.width)]) }
        for (index, variance) in variances.enumerated() {
            let (row, column) = (index / 3, index % 3)
            var values: [Double] = []
            for y in (row * tile)..<((row + 1) * tile) {
                for x in (column * tile)..<((column + 1) * tile) {
                    values.append(at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y) - 4 * at(x, y))
                }
            }
            let mean = values.reduce(0, +) / Double(values.count)
            let reference = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
            #expect(abs(variance - reference) <= 1e-9 * max(1, reference))
        }
    }

    @Test("the score is a high percentile of tile variances, so one detailed region counts")
    func percentileSeesDetail() {
        // A flat plane with detail in one corner tile: the global variance is small, the 95th
        // percentile of 4 tiles interpolates towards the detailed one.
        var pixels = [UInt8](repeating: 128, count: 96 * 96)
        for y in 0..<48 { for x in 0..<48 where (x + y) % 2 == 0 { pixels[y * 96 + x] = 255 } }
        let plane = LumaPlane(width: 96, height: 96, pixels: pixels)
        let tiles = TiledLaplacianVariance.tileVariances(of: plane, tileSize: 48).sorted()
        #expect(tiles[0] == 0 && tiles[3] > 0)
        let score = TiledLaplacianVariance.score(of: plane, tileSize: 48, percentile: 95)
        #expect(abs(score - (tiles[2] + (tiles[3] - tiles[2]) * 0.85)) < 1e-9)
        #expect(score > LaplacianVariance.variance(of: plane))
    }

    @Test("a plane smaller than one tile is scored by its global variance")
    func smallPlane() {
        let plane = randomPlane(width: 20, height: 30, seed: 9)
        #expect(TiledLaplacianVariance.score(of: plane, tileSize: 48) == LaplacianVariance.variance(of: plane))
    }

    @Test("binomial smoothing keeps flat regions and strips most of the noise's Laplacian energy")
    func smoothing() {
        let flat = LumaPlane(width: 17, height: 9, pixels: [UInt8](repeating: 77, count: 17 * 9))
        #expect(BinomialSmoothing.apply(to: flat) == flat)
        let noise = randomPlane(width: 256, height: 256, seed: 11)
        let before = LaplacianVariance.variance(of: noise)
        let after = LaplacianVariance.variance(of: BinomialSmoothing.apply(to: noise))
        #expect(after < before / 8)
        // A single bright pixel spreads as 1-2-1 x 1-2-1 / 16.
        var dot = [UInt8](repeating: 0, count: 25)
        dot[12] = 160
        let spread = BinomialSmoothing.apply(to: LumaPlane(width: 5, height: 5, pixels: dot)).pixels
        #expect(spread[12] == 40 && spread[7] == 20 && spread[6] == 10)
    }
}
