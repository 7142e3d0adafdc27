import BlurMetrics
import Foundation
@testable import LumaAnalysis
import Testing

/// The bytes of a fingerprint as `PhotoFingerprint.base64` lays them out, with `keypoints` features
/// (pseudo-random descriptors, coordinates within a detection plane) and a `width` x `height` thumbnail.
private func craftedFingerprint(keypoints: Int, width: Int, height: Int, originX: Int = 0, originY: Int = 0, seed: UInt64 = 1) -> [UInt8] {
    var state = seed
    func next() -> UInt8 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
    var features: [UInt8] = [0x4C, 0x46, 2, 4, UInt8(truncatingIfNeeded: keypoints), UInt8(truncatingIfNeeded: keypoints >> 8)]
    for _ in 0..<keypoints { features += (0..<4).map { _ in next() } }
    for _ in 0..<(keypoints * 32) { features.append(next()) }
    var bytes: [UInt8] = [PhotoFingerprint.version] + (0..<32).map { _ in next() }
    withUnsafeBytes(of: UInt32(features.count).littleEndian) { bytes.append(contentsOf: $0) }
    bytes += features
    bytes += [0x54, 0x48, 3, 1, 0]
    for value in [originX, originY, width, height] { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
    bytes += (0..<((width * height + 3) / 4)).map { _ in next() }
    return bytes
}

/// A plane of `width` x `height` whose texture has detail at every scale along both sides.
private func strip(width: Int, height: Int) -> LumaPlane {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            pixels[y * width + x] = UInt8(truncatingIfNeeded: ((x * 37) ^ (y * 11) ^ (x * y >> 3)) & 0xFF)
        }
    }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

@Suite("The fingerprint's bounds: every plane's is bounded in size, and parsing refuses what no photo gives")
struct FingerprintBoundsTests {
    @Test("planes up to 8:1 keep their detection plane (512 on the short side); longer ones are capped at 4096 on the long side")
    func detectionPlaneSizes() throws {
        let cases: [(width: Int, height: Int, expected: (Int, Int)?)] = [
            (1365, 1024, (682, 512)), (1024, 1365, (512, 682)), (2048, 512, (2048, 512)), (4096, 1024, (2048, 512)),
            (600, 4800, (512, 4096)), (4096, 512, (4096, 512)), (400, 3300, (496, 4096)), (1000, 12000, (341, 4096)),
            (40, 16380, nil), (100, 16380, (25, 4096)), (20, 20000, nil), (16, 65500, nil), (65500, 400, (4096, 25)), (15, 400, nil),
        ]
        for item in cases {
            let plane = LocalFeatures.detectionPlane(of: LumaPlane(width: item.width, height: item.height,
                                                                   pixels: [UInt8](repeating: 90, count: item.width * item.height)))
            let size = plane.map { ($0.width, $0.height) }
            #expect(size.map { $0.0 } == item.expected.map { $0.0 } && size.map { $0.1 } == item.expected.map { $0.1 },
                    "\(item.width)x\(item.height) -> \(String(describing: size))")
            if let plane {
                #expect(max(plane.width, plane.height) <= LocalFeatures.maximumDetectionLongSide)
                #expect(min(plane.width, plane.height) <= LocalFeatures.detectionSide)
            }
        }
    }

    @Test("narrow strips that trapped get a fingerprint within the bound that round-trips",
          arguments: [(20, 20000), (16, 65500), (40, 16380), (20000, 20), (65500, 40), (300, 9000), (9000, 300), (1, 65500), (65500, 1)])
    func narrowStrips(width: Int, height: Int) throws {
        let start = ContinuousClock.now
        let fingerprint = PhotoFingerprint(of: strip(width: width, height: height))
        let elapsed = ContinuousClock.now - start
        let text = fingerprint.base64
        print("fingerprint of a \(width)x\(height) plane: \(text.utf8.count) base64 bytes, \(fingerprint.features.count) keypoints,"
              + " thumbnail \(fingerprint.thumbnail.width)x\(fingerprint.thumbnail.height), \(elapsed)")
        #expect(text.utf8.count <= PhotoFingerprint.maximumEncodedBytes)
        #expect(fingerprint.features.count <= PhotoFingerprint.keptKeypoints)
        #expect(fingerprint.thumbnail.width * fingerprint.thumbnail.height <= PlaneThumbnail.maximumCells)
        #expect(fingerprint.bytes.count <= PhotoFingerprint.maximumByteCount)
        #expect(max(fingerprint.thumbnail.width, fingerprint.thumbnail.height) <= PlaneThumbnail.maximumLongSide)
        #expect(min(fingerprint.thumbnail.width, fingerprint.thumbnail.height) <= PlaneThumbnail.maximumShortSide)
        #expect(PhotoFingerprint(base64: text) == fingerprint)
        // A strip with too little detail carries no evidence of being a copy, even of itself (issue 63).
        if fingerprint.thumbnail.detailedCells >= DuplicateRule.minimumDetail {
            #expect(fingerprint.matches(fingerprint))
        } else if fingerprint.features.count == 0 {
            #expect(!fingerprint.matches(fingerprint))
        }
    }

    @Test("a repeating pattern, whose corners all tie, keeps the features' bound of keypoints")
    func tiedCornersAreBounded() throws {
        // One bright pixel every 8 each way: each is a corner with the same FAST score and Harris
        // response, and no neighbour is one, so 32,768 tie at the finest level.
        let width = 512, height = 4096
        var pixels = [UInt8](repeating: 30, count: width * height)
        for y in stride(from: 4, to: height, by: 8) {
            for x in stride(from: 4, to: width, by: 8) { pixels[y * width + x] = 220 }
        }
        let plane = LumaPlane(width: width, height: height, pixels: pixels)
        // Before the spread: the ties at each level's cut are kept, but never more than four times
        // the 256 the extractor looks for.
        let found = OrbExtractor.extract(from: try #require(LocalFeatures.detectionPlane(of: plane)), keeping: .max)
        #expect(found.xs.count > 256 && found.xs.count <= 4 * 256, "\(found.xs.count) found")
        let features = LocalFeatures(of: plane)
        print("keypoints of a 512x4096 grid of dots: \(found.xs.count) found, \(features.count) kept")
        // The extractor keeps the ties at each level's cut (up to four times its quota) and describes
        // only the 128 its spread keeps.
        #expect(features.count == LocalFeatures.maximumCount)
        #expect(LocalFeatures(bytes: features.bytes) == features)
    }

    @Test("the largest fingerprint parsing accepts is the bound, and comparing two of them is bounded work")
    func largestParses() throws {
        let largest = craftedFingerprint(keypoints: PhotoFingerprint.keptKeypoints, width: PlaneThumbnail.maximumCells / 128, height: 128)
        #expect(largest.count == PhotoFingerprint.maximumByteCount)
        #expect(largest.count <= 8192, "a fingerprint is at most 8 KB")
        let text = Data(largest).base64EncodedString()
        #expect(text.utf8.count == PhotoFingerprint.maximumEncodedBytes)
        let first = try #require(PhotoFingerprint(base64: text))
        let second = try #require(PhotoFingerprint(base64: Data(craftedFingerprint(keypoints: PhotoFingerprint.keptKeypoints,
            width: 128, height: PlaneThumbnail.maximumCells / 128, originY: 100, seed: 2)).base64EncodedString()))
        let start = ContinuousClock.now
        _ = first.evidence(against: second)
        _ = second.evidence(against: first)
        _ = first.evidence(against: first)
        print("three comparisons of the largest parseable fingerprints: \(ContinuousClock.now - start)"
              + " (\(PhotoFingerprint.maximumEncodedBytes) base64 bytes each)")
    }

    @Test("crafted fingerprints no photo gives are refused",
          arguments: [(PhotoFingerprint.keptKeypoints + 1, 8, 8), (LocalFeatures.maximumCount + 1, 8, 8), (65535, 8, 8), (10, 128, 97), (10, PlaneThumbnail.maximumLongSide + 1, 8),
                      (10, 8, PlaneThumbnail.maximumLongSide + 1), (10, PlaneThumbnail.maximumShortSide + 1, PlaneThumbnail.maximumShortSide + 1),
                      (10, 65535, 1), (10, 1, 4000)])
    func craftedRefused(keypoints: Int, width: Int, height: Int) {
        let bytes = craftedFingerprint(keypoints: keypoints, width: width, height: height)
        #expect(PhotoFingerprint(base64: Data(bytes).base64EncodedString()) == nil, "\(keypoints) keypoints, thumbnail \(width)x\(height)")
    }

    @Test("a string longer than the bound is refused before it is decoded, and parts over their bounds alone too")
    func partsRefused() {
        #expect(PhotoFingerprint(base64: String(repeating: "A", count: PhotoFingerprint.maximumEncodedBytes + 4)) == nil)
        var features: [UInt8] = [0x4C, 0x46, 2, 0, UInt8(truncatingIfNeeded: LocalFeatures.maximumCount + 1), UInt8((LocalFeatures.maximumCount + 1) >> 8)]
        features += [UInt8](repeating: 0, count: (LocalFeatures.maximumCount + 1) * 36)
        #expect(LocalFeatures(bytes: features) == nil)
        #expect(LocalFeatures(bytes: Array(features.prefix(LocalFeatures.maximumByteCount))) == nil)
        func thumbnail(_ grid: UInt8, _ originX: Int, _ originY: Int, _ width: Int, _ height: Int, extra: Int = 0) -> [UInt8] {
            var bytes: [UInt8] = [0x54, 0x48, 3, grid, 0]
            for value in [originX, originY, width, height] { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
            return bytes + [UInt8](repeating: 0, count: (width * height + 3) / 4 + extra)
        }
        #expect(PlaneThumbnail(bytes: thumbnail(0, 0, 0, 96, 128)[...])?.width == 96)
        #expect(PlaneThumbnail(bytes: thumbnail(0, 920, 0, 96, 128)[...])?.originX == 920)
        // More cells than the window keeps, a window past the plane's thumbnail, one cut on both sides or whose whole side is
        // longer than a short side, a grid offset of a whole cell, a wrong length.
        for refused in [thumbnail(0, 0, 0, 97, 128), thumbnail(0, 929, 0, 96, 128), thumbnail(0, 1, 1, 8, 8), thumbnail(0, 5, 0, 8, 129),
                        thumbnail(4, 0, 0, 8, 8),
                        thumbnail(0, 0, 0, 8, 8, extra: 1)] {
            #expect(PlaneThumbnail(bytes: refused[...]) == nil)
        }
    }

    @Test("the memory estimate covers the detection plane and grows no faster than the plane")
    func memoryEstimate() {
        let photo = PhotoFingerprint.estimatedBytes(planeWidth: 1365, planeHeight: 1024)
        #expect(photo >= 682 * 512 * 3 && photo < 4 << 20)
        let strip = PhotoFingerprint.estimatedBytes(planeWidth: 40, planeHeight: 16380)
        // The uncapped detection plane of this strip was 512 x 209,664 (107 MB) before the pyramid.
        #expect(strip < 2 << 20)
        let long = PhotoFingerprint.estimatedBytes(planeWidth: 65500, planeHeight: 1024)
        #expect(long >= 65500 * 1024 / 4 && long < 65500 * 1024)
    }
}
