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
        let sharp = texture(width: 384, height: 288, seed: 5)
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
        let sharp = texture(width: 384, height: 288, seed: 7)
        let dim = LumaPlane(width: sharp.width, height: sharp.height, pixels: sharp.pixels.map { UInt8(20 + Int($0) * 2 / 5) })
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

    private func transpose(_ plane: LumaPlane) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plane.pixels.count)
        for y in 0..<plane.height { for x in 0..<plane.width { out[x * plane.height + y] = plane.pixels[y * plane.width + x] } }
        return out
    }
}
