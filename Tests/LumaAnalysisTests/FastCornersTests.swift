import BlurMetrics
@testable import LumaAnalysis
import Testing

/// OpenCV's FAST score written out plainly: over the 16 arcs of 9 circle pixels, the largest of
/// the smallest signed difference to the centre along the arc (at least 0).
private func referenceScore(_ pixels: [UInt8], at index: Int, offsets: [Int], darker: Bool) -> Int {
    let centre = Int(pixels[index])
    var best = 0
    for start in 0..<16 {
        let arc = (0..<9).map { Int(pixels[index + offsets[(start + $0) % 16]]) - centre }
        best = max(best, (darker ? arc.map { -$0 } : arc).min()!)
    }
    return best
}

@Suite("FAST corners: the score")
struct FastCornersTests {
    @Test("the vector score is OpenCV's, for brighter and darker arcs, on noise, blocks and ramps", arguments: [1, 2, 3] as [UInt64])
    func scoreMatchesReference(seed: UInt64) {
        let width = 64, height = 40
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        let pixels: [UInt8] = (0..<(width * height)).map { index in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = index % width, y = index / width
            switch (x / 16 + y / 10) % 3 {
            case 0: return UInt8(truncatingIfNeeded: state >> 56)
            case 1: return (x / 3 + y / 3) % 2 == 0 ? 250 : UInt8(truncatingIfNeeded: state >> 60)
            default: return UInt8(truncatingIfNeeded: x * 9 + y * 5)
            }
        }
        let circle = [(0, 3), (1, 3), (2, 2), (3, 1), (3, 0), (3, -1), (2, -2), (1, -3),
                      (0, -3), (-1, -3), (-2, -2), (-3, -1), (-3, 0), (-3, 1), (-2, 2), (-1, 3)]
        let offsets = (0..<25).map { circle[$0 % 16].0 + circle[$0 % 16].1 * width }
        var positive = 0, mismatches: [String] = []
        pixels.withUnsafeBufferPointer { source in
            offsets.withUnsafeBufferPointer { off in
                for y in 3..<(height - 3) {
                    for x in 3..<(width - 3) {
                        for darker in [false, true] {
                            let score = FastCorners.cornerScore(source.baseAddress! + y * width + x, off, darker: darker)
                            let expected = referenceScore(pixels, at: y * width + x, offsets: offsets, darker: darker)
                            if score != expected { mismatches.append("(\(x), \(y)) darker \(darker): \(score) not \(expected)") }
                            if expected > 0 { positive += 1 }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(positive > 500)
    }

    @Test("detection is plain FAST-9 with non-maximum suppression, at the extractor's threshold and raised ones",
          arguments: [10, 25, 60])
    func detectionMatchesReference(threshold: Int) {
        let planes = [TestScenes.shapes(width: 260, height: 150, seed: 5), TestScenes.noise(width: 120, height: 80, seed: 9)]
        for plane in planes {
            let w = plane.width, h = plane.height, border = 31
            let circle = [(0, 3), (1, 3), (2, 2), (3, 1), (3, 0), (3, -1), (2, -2), (1, -3),
                          (0, -3), (-1, -3), (-2, -2), (-3, -1), (-3, 0), (-3, 1), (-2, 2), (-1, 3)]
            let offsets = (0..<25).map { circle[$0 % 16].0 + circle[$0 % 16].1 * w }
            // A pixel's score counts when some 9-pixel arc differs from it by more than the threshold.
            var scores = [Int](repeating: 0, count: w * h)
            for y in 3..<(h - 3) {
                for x in 3..<(w - 3) {
                    let best = max(referenceScore(plane.pixels, at: y * w + x, offsets: offsets, darker: false),
                                   referenceScore(plane.pixels, at: y * w + x, offsets: offsets, darker: true))
                    if best > threshold { scores[y * w + x] = best }
                }
            }
            var expected: [FastCorners.Corner] = []
            for y in border..<(h - border) {
                for x in border..<(w - border) {
                    let s = scores[y * w + x]
                    let neighbours = [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1].map { scores[y * w + x + $0] }
                    if s > 0 && neighbours.allSatisfy({ s > $0 }) { expected.append(FastCorners.Corner(x: x, y: y, score: s - 1)) }
                }
            }
            // Within a row, a 16-pixel chunk lists its brighter corners before its darker ones.
            let found = FastCorners.detect(in: plane, threshold: threshold, border: border).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
            #expect(found == expected, "\(w)x\(h): \(found.count) corners, not \(expected.count)")
            #expect(expected.count > 5)
        }
    }
}
