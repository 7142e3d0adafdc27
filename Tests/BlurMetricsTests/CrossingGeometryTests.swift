import Foundation
import TestFixtures
import Testing
@testable import BlurMetrics

@Suite("The crossing-corrected blur score (issue 35, part 2)", .timeLimit(.minutes(10)))
struct CrossingGeometryTests {
    /// A 480 px plane: crisp slats (16 px period, a dark gap, then shading across the slat) whose
    /// normal is at `degrees` from the rows, filling a disc of radius 170 px on flat grey; with
    /// `motion` > 0, averaged over that many pixels along the slats' normal (motion blur across
    /// them). Each pixel is the mean of 3x3 samples, so the edges are antialiased, not aliased.
    private func slats(degrees: Double, motion: Int = 0) -> LumaPlane {
        let side = 480, radius = 170.0, period = 16.0
        let angle = degrees * Double.pi / 180, c = cos(angle), s = sin(angle)
        let steps = motion > 0 ? Array(-(motion / 2)...(motion / 2)) : [0]
        let offsets = [-1.0 / 3, 0, 1.0 / 3]
        var pixels = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side {
                var sum = 0.0, count = 0.0
                for t in steps {
                    for dy in offsets {
                        for dx in offsets {
                            let px = Double(x) + dx + Double(t) * c, py = Double(y) + dy + Double(t) * s
                            let centred = (px - Double(side) / 2) * (px - Double(side) / 2) + (py - Double(side) / 2) * (py - Double(side) / 2)
                            if centred < radius * radius {
                                let u = (px * c + py * s) / period
                                let phase = u - u.rounded(.down)
                                sum += phase < 0.2 ? 40 : 70 + 120 * phase
                            } else {
                                sum += 114
                            }
                            count += 1
                        }
                    }
                }
                pixels[y * side + x] = UInt8((sum / count).rounded())
            }
        }
        return LumaPlane(width: side, height: side, pixels: pixels)
    }

    @Test("the expected share is 3/4 for an even spread of directions, 1 across a lone edge and 1/2 on its diagonals")
    func expectedShare() {
        let isotropic = [5.0, 5, 5, 5]
        for k in 0..<4 { #expect(abs(OrientedDetail.expectedShare(gradients: isotropic, orientation: k) - 0.75) < 1e-12) }
        // A lone edge whose normal lies along the rows: energy cos^2 of the angle to the normal.
        let lone = [1.0, 0.5, 0, 0.5]
        #expect(abs(OrientedDetail.expectedShare(gradients: lone, orientation: 0) - 1) < 1e-12)
        #expect(abs(OrientedDetail.expectedShare(gradients: lone, orientation: 1) - 0.5) < 1e-12)
        #expect(abs(OrientedDetail.expectedShare(gradients: lone, orientation: 3) - 0.5) < 1e-12)
        #expect(OrientedDetail.expectedShare(gradients: [0, 0, 0, 0], orientation: 2) == 0.75)
    }

    @Test("a crisp subject whose edges run one way passes, and its copy blurred across them fails")
    func oneDirectionSubject() {
        let sharp = OrientedDetail(plane: slats(degrees: 22.5))
        let blurred = OrientedDetail(plane: slats(degrees: 22.5, motion: 11))
        let weakest = sharp.score(strongestShare: 0.01)
        let corrected = sharp.crossingCorrectedScore(strongestShare: 0.01)
        let blurredCorrected = blurred.crossingCorrectedScore(strongestShare: 0.01)
        // The weakest orientation sees the slats' edges obliquely and calls them blurry.
        #expect(weakest < 16, "weakest orientation \(weakest)")
        #expect(corrected > 24, "crossing-corrected \(corrected)")
        #expect(blurredCorrected < 20, "blurred, crossing-corrected \(blurredCorrected)")
        #expect(blurredCorrected < 0.75 * corrected)
    }

    @Test("whole-frame blur still fails: a texture smoothed scores far under it, and its motion-blurred copy gains nothing from the correction")
    func wholeFrameBlurFails() {
        let texture = BinomialSmoothing.apply(to: randomPlane(width: 480, height: 360, seed: 35))
        let sharp = OrientedDetail(plane: texture).crossingCorrectedScore(strongestShare: 0.01)
        var smoothed = texture
        for _ in 0..<6 { smoothed = BinomialSmoothing.apply(to: smoothed) }
        let soft = OrientedDetail(plane: smoothed).crossingCorrectedScore(strongestShare: 0.01)
        #expect(soft < 0.5 * sharp, "sharp \(sharp), smoothed six times \(soft)")
        var moved = texture.pixels
        for y in 0..<texture.height {
            for x in 0..<texture.width {
                var sum = 0
                for t in -5...5 { sum += Int(texture.pixels[y * texture.width + min(max(x + t, 0), texture.width - 1)]) }
                moved[y * texture.width + x] = UInt8((sum + 5) / 11)
            }
        }
        let movedDetail = OrientedDetail(plane: LumaPlane(width: texture.width, height: texture.height, pixels: moved))
        let motion = movedDetail.crossingCorrectedScore(strongestShare: 0.01)
        let motionWeakest = movedDetail.score(strongestShare: 0.01)
        // A box kernel keeps some fine detail along its direction, so the drop is smaller than
        // smoothing's; what matters is that the correction gives the motion copy nothing back.
        #expect(motion < 0.6 * sharp, "sharp \(sharp), 11 px motion along the rows \(motion)")
        #expect(motion < 1.1 * motionWeakest, "11 px motion: crossing-corrected \(motion), weakest orientation \(motionWeakest)")
        // An even spread of directions keeps about the weakest-orientation score.
        let weakest = OrientedDetail(plane: texture).score(strongestShare: 0.01)
        #expect(abs(sharp - weakest) < 0.25 * weakest, "crossing-corrected \(sharp), weakest orientation \(weakest)")
    }

    @Test("a flat plane scores 0")
    func flatScoresZero() {
        let flat = LumaPlane(width: 200, height: 150, pixels: [UInt8](repeating: 90, count: 200 * 150))
        #expect(OrientedDetail(plane: flat).crossingCorrectedScore(strongestShare: 0.01) == 0)
        #expect(OrientedDetail.score(of: flat, strongestShare: 0.01, crossingCorrected: true) == 0)
    }
}
