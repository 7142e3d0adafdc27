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

    @Test("the content bounds from 32-bit sums are those from 64-bit sums, at the largest sums of squares a line has (flat 255 beside noise)")
    func boundsInEitherWidth() {
        for (width, height) in [(341, 256), (97, 40), (20, 45), (1, 9), (9, 1), (1500, 7)] {
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
    }
}
