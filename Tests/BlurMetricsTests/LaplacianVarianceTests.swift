import TestFixtures
import Testing
@testable import BlurMetrics

func randomPlane(width: Int, height: Int, seed: UInt64) -> LumaPlane {
    var generator = SplitMix64(state: seed)
    let pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

/// The definition, written as plainly as possible: OpenCV's kernel with reflect-101 borders.
func referenceStatistics(_ plane: LumaPlane) -> (sum: Int64, sumOfSquares: Int64) {
    func reflect(_ i: Int, _ n: Int) -> Int {
        if n == 1 { return 0 }
        if i < 0 { return -i }
        if i >= n { return 2 * n - 2 - i }
        return i
    }
    func at(_ x: Int, _ y: Int) -> Int64 {
        Int64(plane.pixels[reflect(y, plane.height) * plane.width + reflect(x, plane.width)])
    }
    var sum: Int64 = 0
    var squares: Int64 = 0
    for y in 0..<plane.height {
        for x in 0..<plane.width {
            let value = at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y) - 4 * at(x, y)
            sum += value
            squares += value * value
        }
    }
    return (sum, squares)
}

@Suite("Laplacian variance", .timeLimit(.minutes(10)))
struct LaplacianVarianceTests {
    @Test("matches the plain definition for every width around the vector size", arguments: [
        (1, 1), (1, 7), (2, 2), (3, 1), (15, 3), (16, 4), (17, 5), (18, 2), (31, 9), (32, 8), (33, 3), (100, 37), (257, 2),
    ])
    func matchesDefinition(size: (Int, Int)) {
        let plane = randomPlane(width: size.0, height: size.1, seed: UInt64(size.0 * 1000 + size.1))
        let fast = LaplacianVariance.statistics(of: plane)
        let reference = referenceStatistics(plane)
        #expect(fast.sum == reference.sum)
        #expect(fast.sumOfSquares == reference.sumOfSquares)
        #expect(fast.count == size.0 * size.1)
    }

    @Test("rows wider than the 32-bit flush interval stay exact")
    func wideRowsStayExact() {
        // 512 vector steps of 16 lanes: these rows cross the flush point twice, with random
        // samples and with a checkerboard, whose responses (+-1020) are the largest there are.
        let width = 2 * 512 * 16 + 123
        let checkerboard = LumaPlane(width: width, height: 3, pixels: (0..<(width * 3)).map { ($0 % width + $0 / width) % 2 == 0 ? 255 : 0 })
        for plane in [randomPlane(width: width, height: 3, seed: 7), checkerboard] {
            let fast = LaplacianVariance.statistics(of: plane)
            let reference = referenceStatistics(plane)
            #expect(fast.sum == reference.sum)
            #expect(fast.sumOfSquares == reference.sumOfSquares)
        }
    }

    @Test("a flat plane has zero variance")
    func flatPlane() {
        let plane = LumaPlane(width: 64, height: 48, pixels: [UInt8](repeating: 200, count: 64 * 48))
        #expect(LaplacianVariance.variance(of: plane) == 0)
    }

    @Test("a one-pixel checkerboard has the known variance")
    func checkerboard() {
        // Interior responses are +-4*255; with reflect-101 every pixel's four neighbours differ from it.
        let width = 8, height = 8
        let pixels = (0..<(width * height)).map { i in ((i % width) + (i / width)) % 2 == 0 ? UInt8(255) : 0 }
        let variance = LaplacianVariance.variance(of: LumaPlane(width: width, height: height, pixels: pixels))
        #expect(variance == 1020.0 * 1020.0)
    }

    @Test("variance is the population variance of the responses")
    func populationVariance() {
        let statistics = LaplacianStatistics(count: 4, sum: 4, sumOfSquares: 10)
        // Responses with sum 4 and squares 10 over 4 pixels: mean 1, E[x^2] 2.5, variance 1.5.
        #expect(statistics.variance == 1.5)
    }
}
