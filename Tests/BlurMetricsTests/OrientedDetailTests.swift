import TestFixtures
import Testing
@testable import BlurMetrics

@Suite("Oriented detail and the blur score", .timeLimit(.minutes(10)))
struct OrientedDetailTests {
    /// Naive per-tile sums over `BinomialSmoothing.apply(plane)`, with reflect-101 borders.
    private func reference(_ plane: LumaPlane, tile: Int) -> (curvature: [[Double]], gradient: [[Double]]) {
        let smooth = BinomialSmoothing.apply(to: plane)
        func reflect(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i) }
        func at(_ x: Int, _ y: Int) -> Double { Double(smooth.pixels[reflect(y, smooth.height) * smooth.width + reflect(x, smooth.width)]) }
        let columns = plane.width / tile, rows = plane.height / tile
        var curvature = [[Double]](repeating: [Double](repeating: 0, count: columns * rows), count: 4)
        var gradient = curvature
        for row in 0..<rows {
            for column in 0..<columns {
                for y in (row * tile)..<((row + 1) * tile) {
                    for x in (column * tile)..<((column + 1) * tile) {
                        let c = at(x, y)
                        let d = [at(x - 1, y) + at(x + 1, y) - 2 * c, (at(x + 1, y - 1) + at(x - 1, y + 1) - 2 * c) / 2,
                                 at(x, y - 1) + at(x, y + 1) - 2 * c, (at(x - 1, y - 1) + at(x + 1, y + 1) - 2 * c) / 2]
                        let g = [(at(x + 1, y) - at(x - 1, y)) / 2, (at(x + 1, y - 1) - at(x - 1, y + 1)) / (2 * 2.0.squareRoot()),
                                 (at(x, y + 1) - at(x, y - 1)) / 2, (at(x - 1, y - 1) - at(x + 1, y + 1)) / (2 * 2.0.squareRoot())]
                        for k in 0..<4 {
                            curvature[k][row * columns + column] += d[k] * d[k] / Double(tile * tile)
                            gradient[k][row * columns + column] += g[k] * g[k] / Double(tile * tile)
                        }
                    }
                }
            }
        }
        return (curvature, gradient)
    }

    /// Random texture, smoothed a little so it has edges rather than only noise.
    private func texture(width: Int, height: Int, seed: UInt64) -> LumaPlane {
        BinomialSmoothing.apply(to: randomPlane(width: width, height: height, seed: seed))
    }

    /// `plane` averaged over `length` px along rows (motion blur at 0 degrees), reflect-101.
    private func horizontalMotion(_ plane: LumaPlane, length: Int) -> LumaPlane {
        func reflect(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i) }
        var out = plane.pixels
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                var sum = 0
                for t in -(length / 2)...(length / 2) { sum += Int(plane.pixels[y * plane.width + reflect(x + t, plane.width)]) }
                out[y * plane.width + x] = UInt8((sum + length / 2) / length)
            }
        }
        return LumaPlane(width: plane.width, height: plane.height, pixels: out)
    }

    @Test("the fused, ring-buffered pass equals the definition on the denoised plane", arguments: [(100, 70, 32), (67, 50, 16), (48, 48, 48), (130, 97, 20)])
    func matchesDefinition(width: Int, height: Int, tile: Int) {
        let plane = randomPlane(width: width, height: height, seed: UInt64(width * height))
        let detail = OrientedDetail(plane: plane, tileSize: tile)
        let expected = reference(plane, tile: tile)
        #expect(detail.columns == width / tile && detail.rows == height / tile)
        for k in 0..<4 {
            for (ours, theirs) in zip(detail.curvature[k], expected.curvature[k]) { #expect(abs(ours - theirs) <= 1e-9 * max(1, theirs)) }
            for (ours, theirs) in zip(detail.gradient[k], expected.gradient[k]) { #expect(abs(ours - theirs) <= 1e-9 * max(1, theirs)) }
        }
    }

    @Test("measured in bands of tile rows (as on two threads), a plane gives exactly its whole measurement",
          arguments: [(100, 70, 32), (67, 50, 16), (130, 97, 20), (300, 211, 48), (64, 40, 8)])
    func bandsEqualWhole(width: Int, height: Int, tile: Int) {
        let plane = randomPlane(width: width, height: height, seed: UInt64(width + height))
        let whole = OrientedDetail(plane: plane, tileSize: tile)
        // Two bands as the checks use, and more bands than some planes have tile rows (empty bands).
        for count in [1, 2, 3, 5] {
            let bands = (0..<count).map { OrientedDetail.band($0, of: count, plane: plane, tileSize: tile) }
            let banded = OrientedDetail(plane: plane, tileSize: tile, bands: bands, noiseSigma: whole.noiseSigma)
            #expect(banded == whole, "\(count) bands of \(width)x\(height) in tiles of \(tile)")
        }
    }

    @Test("tiles large enough to fill the 32-bit lanes are flushed and stay exact")
    func largeTilesStayExact() {
        // 600 px tiles take 38 vector steps per row, so the lanes are flushed every 54 rows (the
        // bound assumes every difference is the largest possible) and between tile rows.
        let side = 600
        let plane = randomPlane(width: side, height: side, seed: 13)
        let detail = OrientedDetail(plane: plane, tileSize: side)
        let expected = reference(plane, tile: side)
        for k in 0..<4 {
            #expect(abs(detail.curvature[k][0] - expected.curvature[k][0]) <= 1e-9 * max(1, expected.curvature[k][0]))
            #expect(abs(detail.gradient[k][0] - expected.gradient[k][0]) <= 1e-9 * max(1, expected.gradient[k][0]))
        }
    }

    @Test("a flat plane scores 0 and a plane smaller than a tile is one tile")
    func degenerate() {
        let flat = LumaPlane(width: 200, height: 150, pixels: [UInt8](repeating: 90, count: 200 * 150))
        #expect(OrientedDetail.score(of: flat, strongestShare: 0.1) == 0)
        let small = OrientedDetail(plane: randomPlane(width: 30, height: 20, seed: 2))
        #expect(small.tileSize == 20 && small.columns == 1 && small.rows == 1)
    }

    @Test("motion blur along one orientation lowers the score even though the other keeps its edges")
    func motionBlurIsSeen() {
        // Cells, not a smoothed random field: a field of noise-like detail is noise to any
        // estimate, and its floor moves with the blur.
        let sharp = cells(width: 384, height: 288, seed: 5)
        let blurred = horizontalMotion(sharp, length: 9)
        let sharpDetail = OrientedDetail(plane: sharp, tileSize: 48), blurredDetail = OrientedDetail(plane: blurred, tileSize: 48)
        let sharpScore = sharpDetail.score(strongestShare: 0.1), blurredScore = blurredDetail.score(strongestShare: 0.1)
        #expect(blurredScore < sharpScore / 2, "sharp \(sharpScore), blurred \(blurredScore)")
        // The vertical orientation keeps most of its curvature: an isotropic sum would mostly miss the blur.
        let vertical = OrientedDetail.Orientation.vertical.rawValue, horizontal = OrientedDetail.Orientation.horizontal.rawValue
        let verticalKept = blurredDetail.curvature[vertical].reduce(0, +) / sharpDetail.curvature[vertical].reduce(0, +)
        let horizontalKept = blurredDetail.curvature[horizontal].reduce(0, +) / sharpDetail.curvature[horizontal].reduce(0, +)
        #expect(horizontalKept < verticalKept / 4, "kept: horizontal \(horizontalKept), vertical \(verticalKept)")
    }

    @Test("the score does not depend on contrast: a dim copy of a photo scores about the same")
    func contrastIndependent() {
        // The random texture at 60% and 40% of full contrast: at full contrast its finest band reads
        // as noise of more than `noiseCapMaximumSigma`, which the cap takes for a folded pattern.
        let field = texture(width: 384, height: 288, seed: 7)
        let sharp = LumaPlane(width: field.width, height: field.height, pixels: field.pixels.map { UInt8(40 + Int($0) * 3 / 5) })
        let dim = LumaPlane(width: field.width, height: field.height, pixels: field.pixels.map { UInt8(60 + Int($0) * 2 / 5) })
        let full = OrientedDetail.score(of: sharp, strongestShare: 0.1), low = OrientedDetail.score(of: dim, strongestShare: 0.1)
        #expect(abs(low - full) / full < 0.15, "full contrast \(full), 40% contrast \(low)")
    }

    @Test("sensor noise on a blurred photo does not pass for detail")
    func noiseIsNotDetail() {
        // A plane with flat areas (where the noise floor is measured) and blurred edges.
        var pixels = [UInt8](repeating: 60, count: 384 * 288)
        for y in 0..<288 { for x in 0..<384 where (x / 64 + y / 64) % 2 == 0 { pixels[y * 384 + x] = 190 } }
        let blocks = LumaPlane(width: 384, height: 288, pixels: pixels)
        let blurred = horizontalMotion(LumaPlane(width: 288, height: 384, pixels: transpose(horizontalMotion(blocks, length: 9))), length: 9)
        var generator = SplitMix64(state: 3)
        let noisy = LumaPlane(width: blurred.width, height: blurred.height, pixels: blurred.pixels.map {
            UInt8(clamping: Int($0) + Int(generator.next() % 13) - 6)
        })
        let sharpScore = OrientedDetail.score(of: blocks, strongestShare: 0.1)
        let noisyScore = OrientedDetail.score(of: noisy, strongestShare: 0.1)
        #expect(noisyScore < sharpScore / 2, "sharp \(sharpScore), blurred with noise \(noisyScore)")
    }

    /// Cells of `cell` px with random grey levels from 40 to 220, lightly smoothed: a texture of
    /// edges and flat insides (tiles, a rug, a bookshelf) rather than of noise.
    private func cells(width: Int, height: Int, cell: Int = 8, seed: UInt64) -> LumaPlane {
        var generator = SplitMix64(state: seed)
        let across = width / cell + 1
        let levels = (0..<(across * (height / cell + 1))).map { _ in UInt8.random(in: 40...220, using: &generator) }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { pixels[y * width + x] = levels[(y / cell) * across + x / cell] } }
        return BinomialSmoothing.apply(to: LumaPlane(width: width, height: height, pixels: pixels))
    }

    @Test("a picture textured from edge to edge scores as sharp: its detail is not taken for noise", arguments: [(1024, 1024), (2000, 512), (500, 500)])
    func uniformTexture(width: Int, height: Int) {
        let grid = gridPlane(width: width, height: height)
        for share in [0.1, 0.01] {
            #expect(OrientedDetail.score(of: grid, strongestShare: share) > 100)
        }
    }

    @Test("a texture of cells from edge to edge scores as sharp, and its motion-blurred copy does not")
    func uniformCells() {
        let tiles = cells(width: 384, height: 288, seed: 11)
        let sharp = OrientedDetail.score(of: tiles, strongestShare: 0.1)
        let blurred = OrientedDetail.score(of: horizontalMotion(tiles, length: 9), strongestShare: 0.1)
        #expect(sharp > 12 && blurred < sharp / 2, "sharp \(sharp), blurred \(blurred)")
    }

    @Test("a texture on a flat, noisy background scores about as the texture alone does")
    func textureOnFlatBackground() {
        let patch = cells(width: 144, height: 144, seed: 12)
        let alone = OrientedDetail.score(of: patch, strongestShare: 1)
        let framed = noisyPlane(width: 576, height: 432, sigma: 2, seed: 13) { x, y in
            (192..<336).contains(x) && (144..<288).contains(y) ? Double(patch.pixels[(y - 144) * 144 + x - 192]) : 128
        }
        let score = OrientedDetail.score(of: framed, strongestShare: 0.08)
        #expect(alone > 12 && score > 12 && score < 2 * alone, "texture alone \(alone), on a flat background \(score)")
    }

    @Test("flat noise is no detail: it scores 0", arguments: [2.0, 5.0, 8.0])
    func flatNoise(sigma: Double) {
        let noise = noisyPlane(width: 480, height: 384, sigma: sigma, seed: UInt64(sigma))
        for share in [0.1, 0.02] {
            #expect(OrientedDetail.score(of: noise, strongestShare: share) == 0)
        }
    }

    @Test("a plane halved takes the rounded mean of each 2x2 block and leaves out a last odd row and column")
    func halving() throws {
        let plane = LumaPlane(width: 5, height: 3, pixels: [0, 1, 10, 20, 99, 2, 2, 30, 41, 99, 7, 7, 7, 7, 7])
        let half = try #require(plane.halved())
        #expect(half.width == 2 && half.height == 1)
        #expect(half.pixels == [1, 25])
        #expect(LumaPlane(width: 1, height: 4, pixels: [1, 2, 3, 4]).halved() == nil)
        // Wide enough for the vector steps and a scalar tail.
        let wide = randomPlane(width: 75, height: 9, seed: 5)
        var expected: [UInt8] = []
        for y in 0..<4 {
            for x in 0..<37 {
                let top = Int(wide.pixels[2 * y * 75 + 2 * x]) + Int(wide.pixels[2 * y * 75 + 2 * x + 1])
                let bottom = Int(wide.pixels[(2 * y + 1) * 75 + 2 * x]) + Int(wide.pixels[(2 * y + 1) * 75 + 2 * x + 1])
                expected.append(UInt8((top + bottom + 2) / 4))
            }
        }
        #expect(wide.halved()?.pixels == expected)
    }

    /// `plane` as hand shake that dwells leaves it: `ghost` of the contrast stays sharp, the rest
    /// is smeared over `length` px along rows.
    private func ghosted(_ plane: LumaPlane, ghost: Double, length: Int) -> LumaPlane {
        let smeared = horizontalMotion(plane, length: length)
        let pixels = zip(plane.pixels, smeared.pixels).map { UInt8((ghost * Double($0) + (1 - ghost) * Double($1)).rounded()) }
        return LumaPlane(width: plane.width, height: plane.height, pixels: pixels)
    }

    @Test("a sharp ghost over a smear looks sharp at full scale; the half-scale score sees the smear")
    func ghostIsSeenAtHalfScale() {
        let tiles = cells(width: 768, height: 512, cell: 24, seed: 21)
        let ghost = ghosted(tiles, ghost: 0.35, length: 15)
        let weight = 0.83
        let sharpFine = OrientedDetail.score(of: tiles, strongestShare: 0.1)
        let ghostFine = OrientedDetail.score(of: ghost, strongestShare: 0.1)
        let sharpBoth = OrientedDetail.score(of: tiles, strongestShare: 0.1, coarseWeight: weight)
        let ghostBoth = OrientedDetail.score(of: ghost, strongestShare: 0.1, coarseWeight: weight)
        // Measured: sharp 21.4 at both scales; the ghost 17.1 at full scale, 13.0 with the half scale.
        #expect(ghostFine > 0.75 * sharpFine, "the full scale alone is fooled: sharp \(sharpFine), ghost \(ghostFine)")
        #expect(sharpBoth == sharpFine, "the half scale must not lower a sharp plane: \(sharpFine) -> \(sharpBoth)")
        #expect(ghostBoth < 0.8 * ghostFine && ghostBoth < 0.65 * sharpBoth, "with the half scale: sharp \(sharpBoth), ghost \(ghostBoth)")
    }

    @Test("a pattern finer than the halved plane holds is judged at full scale alone", arguments: [(1024, 1024), (2048, 1024)])
    func fineGridKeepsItsScore(width: Int, height: Int) {
        let grid = gridPlane(width: width, height: height)
        #expect(OrientedDetail.score(of: grid, strongestShare: 0.1, coarseWeight: 0.83) == OrientedDetail.score(of: grid, strongestShare: 0.1))
    }

    private func transpose(_ plane: LumaPlane) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plane.pixels.count)
        for y in 0..<plane.height { for x in 0..<plane.width { out[x * plane.height + y] = plane.pixels[y * plane.width + x] } }
        return out
    }
}
