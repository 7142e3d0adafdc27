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
}
