import BlurMetrics
@testable import LumaAnalysis
import Testing

@Suite("The quarter plane: 4x4 block means")
struct QuarterPlaneTests {
    @Test("the quarter plane is the rounded mean of each whole 4x4 block", arguments: [(16, 8), (37, 23), (4, 4), (61, 9)])
    func quarterPlaneMatchesReference(size: (Int, Int)) {
        let plane = TestScenes.noise(width: size.0, height: size.1, seed: UInt64(size.0 + size.1))
        let quarter = QuarterPlane.of(plane)
        var expected: [UInt8] = []
        for by in 0..<(size.1 / 4) {
            for bx in 0..<(size.0 / 4) {
                var sum = 0
                for y in 0..<4 { for x in 0..<4 { sum += Int(plane.pixels[(4 * by + y) * size.0 + 4 * bx + x]) } }
                expected.append(UInt8((sum + 8) / 16))
            }
        }
        #expect(quarter.width == size.0 / 4 && quarter.height == size.1 / 4)
        #expect(quarter.pixels == expected)
    }
}
