import Foundation
import TestFixtures
import Testing
@testable import BlurMetrics

/// `plane` area-resampled to `width` x `height` by `AnalysisPlaneBuilder`, with the finer plane it keeps.
func resampled(_ plane: LumaPlane, width: Int, height: Int) -> (analysis: LumaPlane, finer: LumaPlane?) {
    let builder = AnalysisPlaneBuilder(sourceWidth: plane.width, sourceHeight: plane.height, bands: 1,
                                       targetWidth: width, targetHeight: height, keepsFinerPlane: true)
    plane.pixels.withUnsafeBufferPointer { builder.append(rows: $0.baseAddress!, count: plane.height, rowStride: plane.width) }
    return (builder.finish(), builder.finishFiner())
}

@Suite("Blur measured where the detail is", .timeLimit(.minutes(10)))
struct ScaleAwareBlurScoreTests {
    @Test("the finer plane is the source up to four times the target's shortest side, else the source resampled to twice the target")
    func finerPlaneSize() {
        #expect(AnalysisPlaneBuilder.finerSize(sourceWidth: 2048, sourceHeight: 1536, targetWidth: 1365, targetHeight: 1024) == (2048, 1536))
        #expect(AnalysisPlaneBuilder.finerSize(sourceWidth: 4096, sourceHeight: 3072, targetWidth: 1365, targetHeight: 1024) == (4096, 3072))
        #expect(AnalysisPlaneBuilder.finerSize(sourceWidth: 4096, sourceHeight: 4096, targetWidth: 1024, targetHeight: 1024) == (4096, 4096))
        #expect(AnalysisPlaneBuilder.finerSize(sourceWidth: 6000, sourceHeight: 4000, targetWidth: 1536, targetHeight: 1024) == (6000, 4000))
        #expect(AnalysisPlaneBuilder.finerSize(sourceWidth: 8000, sourceHeight: 6000, targetWidth: 1365, targetHeight: 1024) == (2730, 2048))
        // A photo that fails is decoded again at more than twice the plane: the gateway's 4 px grid
        // at 4096x4096 decoded at 4/8 is a flat 2 px period, at 5/8 a 2.5 px one.
        #expect(AnalysisScale.shortestSide(1024).decodeShortestSide == 2049)
        #expect(AnalysisScale.native.decodeShortestSide == nil)
        let grid = gridPlane(width: 300, height: 200)
        let kept = resampled(grid, width: 150, height: 100)
        #expect(kept.finer == grid)
        #expect(kept.analysis.width == 150 && kept.analysis.height == 100)
        let builder = AnalysisPlaneBuilder(sourceWidth: 300, sourceHeight: 200, bands: 1, targetWidth: 300, targetHeight: 200, keepsFinerPlane: true)
        grid.pixels.withUnsafeBufferPointer { builder.append(rows: $0.baseAddress!, count: 200, rowStride: 300) }
        #expect(builder.finishFiner() == nil, "a plane measured as it is has no finer plane")
    }

    @Test("the analysis plane is the same whether or not a finer plane is kept")
    func analysisUnchanged() {
        let photo = noisyPlane(width: 700, height: 500, sigma: 3, seed: 4) { x, y in 128 + 60 * sin(Double(x) / 9) * cos(Double(y) / 13) }
        let plain = AnalysisPlaneBuilder(sourceWidth: 700, sourceHeight: 500, bands: 1, targetWidth: 420, targetHeight: 300)
        photo.pixels.withUnsafeBufferPointer { plain.append(rows: $0.baseAddress!, count: 500, rowStride: 700) }
        #expect(resampled(photo, width: 420, height: 300).analysis == plain.finish())
    }

    @Test("central-difference energy ignores two-pixel alternation and matches a direct sum")
    func gradientEnergy() {
        let stripes = LumaPlane(width: 64, height: 64, pixels: (0..<4096).map { ($0 % 64) % 2 == 0 ? 0 : 255 })
        #expect(stripes.gradientEnergy(rowStep: 1) == 0)
        let photo = noisyPlane(width: 97, height: 61, sigma: 20, seed: 2)
        var direct = 0.0
        for y in 1..<60 {
            for x in 1..<96 {
                let p = { (x: Int, y: Int) in Double(photo.pixels[y * 97 + x]) }
                direct += (p(x + 1, y) - p(x - 1, y)) * (p(x + 1, y) - p(x - 1, y)) + (p(x, y + 1) - p(x, y - 1)) * (p(x, y + 1) - p(x, y - 1))
            }
        }
        #expect(abs(photo.gradientEnergy(rowStep: 1) - direct) < 1e-6)
    }

    @Test("noise white at the plane's scale keeps its estimate; a pattern folded near Nyquist does not count as noise")
    func whiteNoise() {
        let noisy = noisyPlane(width: 512, height: 512, sigma: 6, seed: 11)
        let white = NoiseEstimate.whiteNoiseSigma(of: noisy)
        #expect(abs(white - 6) / 6 < 0.1, "estimated \(white)")
        // The gateway's grid shrunk by 1.25: a 3.2 px period whose diagonal detail the plain estimate takes for noise.
        let folded = resampled(gridPlane(width: 640, height: 640), width: 512, height: 512).analysis
        #expect(NoiseEstimate(plane: folded).sigma > 10)
        #expect(NoiseEstimate.whiteNoiseSigma(of: folded) < 3)
    }

    @Test("the grid resampled to near two pixels per period is judged on the finer plane and is sharp")
    func gridAtEveryScale() {
        for side in [600, 720, 800, 900, 1000] {
            let (analysis, finer) = resampled(gridPlane(width: side, height: side), width: 512, height: 512)
            let measured = ScaleAwareBlurScore.measure(analysis: analysis, finer: finer, strongestShare: 0.1)
            #expect(measured.score > 100, "grid at \(side) px: \(measured)")
        }
    }

    @Test("a blurred photo is not rescued by its finer plane, nor a flat one")
    func blurredStaysBlurred() {
        let blurred = noisyPlane(width: 1000, height: 1000, sigma: 1, seed: 5) { x, y in 128 + 80 * sin(Double(x) / 25) * sin(Double(y) / 31) }
        let (analysis, finer) = resampled(blurred, width: 500, height: 500)
        let measured = ScaleAwareBlurScore.measure(analysis: analysis, finer: finer, strongestShare: 0.1)
        #expect(measured.score < 24, "\(measured)")
        let flat = LumaPlane(width: 1000, height: 800, pixels: [UInt8](repeating: 128, count: 800_000))
        let (flatAnalysis, flatFiner) = resampled(flat, width: 640, height: 512)
        #expect(ScaleAwareBlurScore.measure(analysis: flatAnalysis, finer: flatFiner, strongestShare: 0.1).score == 0)
    }

    @Test("a score at or above the threshold stands without a look at the finer plane")
    func fastPath() {
        let (analysis, finer) = resampled(gridPlane(width: 1024, height: 1024), width: 512, height: 512)
        let measured = ScaleAwareBlurScore.measure(analysis: analysis, finer: finer, strongestShare: 0.1, finerBelow: -1)
        #expect(measured.plane == .analysis && measured.finerScore == nil && measured.retainedDetail == nil)
    }
}
