import Foundation
import TestFixtures
import Testing
@testable import BlurMetrics

/// A plane of `base(x, y)` plus Gaussian noise of `sigma` levels (Box-Muller), rounded and clipped.
func noisyPlane(width: Int, height: Int, sigma: Double, seed: UInt64, base: (Int, Int) -> Double = { _, _ in 128 }) -> LumaPlane {
    var generator = SplitMix64(state: seed)
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let u = max(Double(generator.next() >> 11) / Double(1 << 53), 1e-12), v = Double(generator.next() >> 11) / Double(1 << 53)
            let gaussian = (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
            pixels[y * width + x] = UInt8(clamping: Int((base(x, y) + sigma * gaussian).rounded()))
        }
    }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

/// The gateway's sharp test pattern (`_make_sharp_image`): 1 px black lines every 4 px on white.
func gridPlane(width: Int, height: Int) -> LumaPlane {
    var pixels = [UInt8](repeating: 255, count: width * height)
    for y in 0..<height { for x in 0..<width where x % 4 == 0 || y % 4 == 0 { pixels[y * width + x] = 0 } }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

@Suite("Noise estimate", .timeLimit(.minutes(10)))
struct NoiseEstimateTests {
    @Test("flat noise is measured within 5%", arguments: [1.0, 2.0, 5.0, 8.0])
    func flatNoise(sigma: Double) {
        let estimate = NoiseEstimate(plane: noisyPlane(width: 512, height: 512, sigma: sigma, seed: UInt64(sigma * 10))).sigma
        #expect(abs(estimate - sigma) / sigma < 0.05, "noise \(sigma), estimated \(estimate)")
    }

    @Test("texture does not count as noise: the grid pattern, and blocks under noise")
    func textureIsNotNoise() {
        #expect(NoiseEstimate(plane: gridPlane(width: 500, height: 500)).sigma < 0.5)
        let blocks = noisyPlane(width: 512, height: 512, sigma: 4, seed: 9) { x, y in (x / 16 + y / 16) % 2 == 0 ? 60 : 190 }
        let estimate = NoiseEstimate(plane: blocks).sigma
        #expect(abs(estimate - 4) < 0.4, "estimated \(estimate)")
    }

    @Test("a plane smaller than 2x2 has no noise estimate")
    func tiny() {
        #expect(NoiseEstimate(plane: LumaPlane(width: 1, height: 5, pixels: [1, 2, 3, 4, 5])).sigma == 0)
    }

    @Test("the median is interpolated within its bin")
    func median() {
        #expect(NoiseEstimate.median(of: [0, 4, 0], count: 4) == 1.0)
        #expect(abs(NoiseEstimate.median(of: [2, 2], count: 4) - 0.5) < 1e-12)
    }
}
