import BlurMetrics
@testable import LumaAnalysis
import Testing

/// OpenCV's retainBest for FAST corners written out plainly: every corner scoring at least the
/// n-th best score, from all the corners FAST finds at the extractor's threshold of 10.
private func referenceStrongest(_ plane: LumaPlane, count n: Int) -> [FastCorners.Corner] {
    let corners = FastCorners.detect(in: plane, threshold: 10, border: 31)
    guard corners.count > n else { return corners }
    let cut = corners.map(\.score).sorted(by: >)[n - 1]
    return corners.filter { $0.score >= cut }
}

/// A plane with few corners: a soft gradient with a handful of faint blocks.
private func faintScene(width: Int, height: Int) -> LumaPlane {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let block = (x / 40 + y / 40) % 7 == 0 ? 14 : 0
            pixels[y * width + x] = UInt8(90 + (x + 2 * y) * 40 / (width + 2 * height) + block)
        }
    }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

/// A plane dense with corners: 3x3 blocks of pseudo-random grey.
private func busyScene(width: Int, height: Int) -> LumaPlane {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var blocks = [UInt8](repeating: 0, count: (width / 3 + 1) * (height / 3 + 1))
    for i in blocks.indices {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        blocks[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    let pixels = (0..<(width * height)).map { blocks[($0 / width / 3) * (width / 3 + 1) + $0 % width / 3] }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

@Suite("FAST corners: the strongest, found from a raised threshold")
struct StrongestCornersTests {
    @Test("the same corners and cut as retaining the best of every corner, whatever the first threshold tried",
          arguments: [10, 25, 40, 90, 255])
    func matchesRetainingFromAll(guess: Int) {
        let scenes = [TestScenes.shapes(width: 682, height: 512, seed: 3), busyScene(width: 404, height: 303),
                      faintScene(width: 525, height: 394)]
        for scene in scenes {
            for n in [1, 60, 216, 430, 100_000] {
                let expected = referenceStrongest(scene, count: n)
                let found = OrbExtractor.strongestCorners(in: scene, count: n, guess: guess)
                #expect(found.corners == expected, "\(scene.width)x\(scene.height), n \(n)")
                #expect(found.cut == (expected.map(\.score).min() ?? 10))
            }
        }
    }

    @Test("rows scanned in bands and put together are the corners of one scan", arguments: [10, 40, 70])
    func bandsMakeOneScan(threshold: Int) {
        for scene in [TestScenes.shapes(width: 682, height: 512, seed: 3), busyScene(width: 404, height: 303)] {
            let whole = FastCorners.detect(in: scene, threshold: threshold, border: 31)
            var pieced: [FastCorners.Corner] = []
            var top = 0
            for bottom in [20, 31, 32, 40, 41, 100, 101, 102, 180, 250, 600] {
                pieced += FastCorners.detect(in: scene, threshold: threshold, border: 31, rows: top..<bottom)
                top = bottom
            }
            #expect(pieced == whole, "\(scene.width)x\(scene.height)")
        }
    }

    @Test("the first threshold's sample, reused by the scan, gives the same corners and cut; each case of the sample is met")
    func sampledFirstThreshold() {
        let scenes = [TestScenes.shapes(width: 682, height: 512, seed: 3), busyScene(width: 404, height: 303),
                      faintScene(width: 525, height: 394)]
        var thresholds: [Int] = []
        for scene in scenes {
            for n in [1, 60, 216, 430, 100_000] {
                let expected = referenceStrongest(scene, count: n)
                let first = OrbExtractor.firstThreshold(in: scene, count: n)
                let found = OrbExtractor.strongestCorners(in: scene, count: n, guess: first.threshold, sample: first.sample)
                #expect(found.corners == expected, "\(scene.width)x\(scene.height), n \(n)")
                #expect(found.cut == (expected.map(\.score).min() ?? 10))
                for threshold in [40, 41, 60, 255] {
                    #expect(first.sample?.detect(in: scene, threshold: threshold) == FastCorners.detect(in: scene, threshold: threshold, border: 31))
                }
                thresholds.append(first.threshold)
            }
        }
        // Above the sample's threshold (a dense scene), at it, and below it (few corners).
        #expect(thresholds.contains { $0 > 40 } && thresholds.contains(40) && thresholds.contains { $0 < 40 })
    }

    @Test("the scenes span the cases: many more corners than kept, a few more, and fewer than asked for")
    func scenesCoverEveryCase() {
        #expect(FastCorners.detect(in: busyScene(width: 404, height: 303), threshold: 10, border: 31).count > 1000)
        #expect(FastCorners.detect(in: TestScenes.shapes(width: 682, height: 512, seed: 3), threshold: 10, border: 31).count > 216)
        #expect(FastCorners.detect(in: faintScene(width: 525, height: 394), threshold: 10, border: 31).count < 216)
    }
}
