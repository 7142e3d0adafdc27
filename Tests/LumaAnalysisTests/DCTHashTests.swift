import BlurMetrics
@testable import LumaAnalysis
import Testing

@Suite("The DCT hash: the 32x32 average it transforms")
struct DCTHashTests {
    @Test("each cell is the plain mean of the samples whose row and column fall in it, for pictures larger and smaller than 32",
          arguments: [(341, 256), (97, 40), (20, 45), (32, 32)])
    func averageMatchesReference(size: (Int, Int)) {
        let plane = TestScenes.noise(width: size.0, height: size.1, seed: UInt64(size.0 * 7 + size.1))
        let bounds = ContentBounds(of: plane)
        let side = DCTHash.side, width = bounds.columns.count, height = bounds.rows.count
        var sums = [Int](repeating: 0, count: side * side), counts = sums
        for y in 0..<height {
            for x in 0..<width {
                let cell = y * side / height * side + x * side / width
                sums[cell] += Int(plane.pixels[(bounds.rows.lowerBound + y) * plane.width + bounds.columns.lowerBound + x])
                counts[cell] += 1
            }
        }
        let expected = zip(sums, counts).map { $1 > 0 ? Double($0) / Double($1) : 0 }
        #expect(DCTHash.averaged(plane, within: bounds) == expected)
    }

    @Test("the content bounds from 32-bit sums are those from 64-bit sums on ordinary planes and on a 66,051-sample line of white beside noise (the widest whose sum of squares fits)")
    func boundsInEitherWidth() {
        for (width, height) in [(341, 256), (97, 40), (20, 45), (1, 9), (9, 1), (1500, 7), (66_051, 3)] {
            let noise = TestScenes.noise(width: width, height: height, seed: UInt64(width + height))
            // A white border of a quarter of each side around the noise, and the noise under flat white bars.
            let framed = LumaPlane(width: width, height: height, pixels: (0..<(width * height)).map { index in
                let x = index % width, y = index / width
                return x < width / 4 || y < height / 4 ? 255 : noise.pixels[index]
            })
            for plane in [noise, framed] {
                let narrow = ContentBounds.bounds(of: plane, summingIn: UInt32.self), wide = ContentBounds.bounds(of: plane, summingIn: UInt64.self)
                #expect(narrow.0 == wide.0 && narrow.1 == wide.1, "\(width)x\(height)")
            }
        }
        // The widest line the 32-bit sums take: all white, then noise; the same bounds either way.
        let white = LumaPlane(width: 66_051, height: 2, pixels: [UInt8](repeating: 255, count: 66_051) + TestScenes.noise(width: 66_051, height: 1, seed: 7).pixels)
        let narrow = ContentBounds.bounds(of: white, summingIn: UInt32.self), wide = ContentBounds.bounds(of: white, summingIn: UInt64.self)
        #expect(narrow.0 == wide.0 && narrow.1 == wide.1)
    }

    @Test("past 66,051 samples a line's 32-bit sum of squares would wrap and change the bounds; ContentBounds takes the 64-bit sums there")
    func widePlanesSumIn64Bits() {
        // 100,000 samples a row: a busy row of 255 and 200 (its sum of squares, 5.3e9, wraps 32 bits),
        // two flat rows, and a busy row of 0 and 100.
        let width = 100_000
        var pixels = (0..<width).map { UInt8($0 % 2 == 0 ? 255 : 200) }
        pixels += [UInt8](repeating: 128, count: 2 * width)
        pixels += (0..<width).map { UInt8($0 % 2 == 0 ? 0 : 100) }
        let plane = LumaPlane(width: width, height: 4, pixels: pixels)
        let narrow = ContentBounds.bounds(of: plane, summingIn: UInt32.self), wide = ContentBounds.bounds(of: plane, summingIn: UInt64.self)
        #expect(narrow.0 != wide.0 || narrow.1 != wide.1, "the wrapped sums must give other bounds, or this plane tests nothing")
        let chosen = ContentBounds(of: plane)
        #expect(chosen.rows == wide.0 && chosen.columns == wide.1)
    }
}
