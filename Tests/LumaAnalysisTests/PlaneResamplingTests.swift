import BlurMetrics
@testable import LumaAnalysis
import Testing

/// The bilinear resize written out plainly: per output sample, 7-bit weights on both axes from pixel-centre
/// alignment (the last source column read at full weight from its left neighbour), one exact sum, one rounding.
private func referenceResized(_ plane: LumaPlane, width: Int, height: Int) -> [UInt8] {
    func tap(_ d: Int, scale: Double, size: Int) -> (Int, Int) {
        let f = (Double(d) + 0.5) * scale - 0.5
        var i = Int(f.rounded(.down)), frac = f - Double(i)
        if i < 0 { i = 0; frac = 0 }
        if i >= size - 1 { i = size - 1; frac = 0 }
        return (i, Int((frac * 128).rounded()))
    }
    var out: [UInt8] = []
    for y in 0..<height {
        let (sy, wy) = tap(y, scale: Double(plane.height) / Double(height), size: plane.height)
        let sy1 = min(sy + 1, plane.height - 1)
        for x in 0..<width {
            var (sx, wx) = tap(x, scale: Double(plane.width) / Double(width), size: plane.width)
            if sx == plane.width - 1 { sx -= 1; wx = 128 }
            func p(_ r: Int, _ c: Int) -> Int { Int(plane.pixels[r * plane.width + c]) }
            let sum = (p(sy, sx) * (128 - wx) + p(sy, sx + 1) * wx) * (128 - wy) + (p(sy1, sx) * (128 - wx) + p(sy1, sx + 1) * wx) * wy
            out.append(UInt8((sum + 8192) >> 14))
        }
    }
    return out
}

/// The 7x7 Gaussian written out plainly: rows filtered and rounded, then columns, the 3-pixel frame left as it was.
private func referenceBlurred(_ plane: LumaPlane) -> [UInt8] {
    let w = plane.width, h = plane.height, weights = [18, 33, 49, 56, 49, 33, 18]
    var rows = plane.pixels, out = plane.pixels
    for y in 0..<h {
        for x in 3..<(w - 3) {
            let sum = (0..<7).reduce(0) { $0 + weights[$1] * Int(plane.pixels[y * w + x + $1 - 3]) }
            rows[y * w + x] = UInt8((sum + 128) >> 8)
        }
    }
    for y in 3..<(h - 3) {
        for x in 3..<(w - 3) {
            let sum = (0..<7).reduce(0) { $0 + weights[$1] * Int(rows[(y + $1 - 3) * w + x]) }
            out[y * w + x] = UInt8((sum + 128) >> 8)
        }
    }
    return out
}

@Suite("Plane resampling: the pyramid's resize and the descriptors' blur")
struct PlaneResamplingTests {
    @Test("the bilinear resize is the plain two-axis sum, shrinking by the pyramid's 1.3, enlarging, and to odd sizes",
          arguments: [(97, 61, 75, 47), (97, 61, 150, 90), (40, 33, 39, 34), (2, 5, 7, 3), (64, 48, 64, 48)])
    func resizeMatchesReference(size: (Int, Int, Int, Int)) {
        let plane = TestScenes.noise(width: size.0, height: size.1, seed: UInt64(size.2))
        let resized = PlaneResampling.resizedBilinear(plane, width: size.2, height: size.3)
        #expect(resized.width == size.2 && resized.height == size.3)
        #expect(resized.pixels == referenceResized(plane, width: size.2, height: size.3))
    }

    @Test("the blur is the plain row-then-column filter with its frame copied", arguments: [(7, 7), (8, 30), (53, 41), (300, 9)])
    func blurMatchesReference(size: (Int, Int)) {
        let plane = TestScenes.noise(width: size.0, height: size.1, seed: UInt64(size.0 * size.1))
        #expect(PlaneResampling.gaussianBlurred7(plane).pixels == referenceBlurred(plane))
    }

    @Test("the blur into a larger buffer, as the pyramid's levels share one, writes the same samples at its start")
    func blurIntoSharedBuffer() {
        let large = TestScenes.noise(width: 60, height: 40, seed: 3), small = TestScenes.noise(width: 45, height: 31, seed: 4)
        var buffer: [UInt8] = []
        PlaneResampling.gaussianBlurred7(large, into: &buffer)
        #expect(buffer == referenceBlurred(large))
        PlaneResampling.gaussianBlurred7(small, into: &buffer)
        #expect(buffer.count == 60 * 40)
        #expect(Array(buffer[..<(45 * 31)]) == referenceBlurred(small))
    }

    @Test("the blur near keypoints is the whole blur within the radius of each, clustered, apart, at the reach's edge and near an edge")
    func blurNearCentres() {
        let plane = TestScenes.noise(width: 180, height: 120, seed: 9)
        let whole = PlaneResampling.gaussianBlurred7(plane).pixels
        let radius = 20
        let sets: [[(x: Int, y: Int)]] = [[(60, 50), (62, 51), (100, 50), (70, 90), (140, 40)], [(23, 23), (156, 96)], [(90, 60)], [],
                                          [(10, 60), (90, 60)]]
        for centres in sets {
            var buffer = [UInt8](repeating: 0x5A, count: 180 * 120 + 7)
            PlaneResampling.gaussianBlurred7(plane, near: centres, radius: radius, into: &buffer)
            for c in centres {
                for y in max(c.y - radius, 0)...min(c.y + radius, 119) {
                    for x in max(c.x - radius, 0)...min(c.x + radius, 179) {
                        #expect(buffer[y * 180 + x] == whole[y * 180 + x], "centre \(c), sample (\(x), \(y))")
                    }
                }
            }
        }
    }

    @Test("a plane too small for the blur is returned as it is")
    func tinyPlaneIsNotBlurred() {
        let plane = TestScenes.noise(width: 6, height: 20, seed: 5)
        #expect(PlaneResampling.gaussianBlurred7(plane) == plane)
    }

    @Test("one pass gives the halved plane and the quarter plane, whole chunks, tails and a last halved row alike",
          arguments: [(64, 64), (37, 23), (70, 18), (33, 10), (4, 4), (16, 7)])
    func halvedAndQuarteredMatchApart(size: (Int, Int)) throws {
        let plane = TestScenes.noise(width: size.0, height: size.1, seed: UInt64(size.0 &* 31 &+ size.1))
        let both = try #require(PlaneResampling.halvedAndQuartered(plane))
        #expect(both.half == PlaneResampling.halved(plane))
        #expect(both.quarter == QuarterPlane.of(plane))
    }

    @Test("a plane with a side under 4 has no quarter plane to share a pass with")
    func tinyPlaneIsNotQuartered() {
        #expect(PlaneResampling.halvedAndQuartered(TestScenes.noise(width: 40, height: 3, seed: 1)) == nil)
    }
}
