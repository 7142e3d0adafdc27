import Testing
@testable import BlurMetrics

@Suite("Denoising", .timeLimit(.minutes(10)))
struct BinomialSmoothingTests {
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
