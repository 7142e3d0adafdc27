import BlurMetrics
import Foundation
import LumaAnalysis
import Testing

/// A plane of smooth shapes and texture, different for each `seed`.
private func scene(width: Int, height: Int, seed: Int) -> LumaPlane {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
        for x in 0..<width {
            let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
            let across: Double = sin(fx * Double(3 + seed % 5) + Double(seed))
            let down: Double = cos(fy * Double(2 + seed % 3) * 2.1)
            let shape: Double = across * down * 90
            let ramp: Double = Double(seed % 2 == 0 ? x : y) / Double(max(width, height)) * 60
            let texture: Int = ((x * 7) ^ (y * 13 + seed)) % 9
            pixels[y * width + x] = UInt8(clamping: Int(120 + shape + ramp) + texture)
        }
    }
    return LumaPlane(width: width, height: height, pixels: pixels)
}

/// `plane` turned a quarter clockwise.
private func rotated(_ plane: LumaPlane) -> LumaPlane {
    var pixels = [UInt8](repeating: 0, count: plane.pixels.count)
    for y in 0..<plane.height {
        for x in 0..<plane.width {
            pixels[x * plane.height + (plane.height - 1 - y)] = plane.pixels[y * plane.width + x]
        }
    }
    return LumaPlane(width: plane.height, height: plane.width, pixels: pixels)
}

@Suite("The duplicate fingerprint")
struct PhotoFingerprintTests {
    @Test("a photo matches itself turned by a quarter, a half and three quarters")
    func rotations() {
        let plane = TestScenes.shapes(width: 640, height: 480, seed: 3)
        let fingerprint = PhotoFingerprint(of: plane)
        var turned = plane
        for _ in 1...3 {
            turned = rotated(turned)
            let other = PhotoFingerprint(of: turned)
            // The border trim runs rows first, so a turned plane may trim a line differently.
            #expect(fingerprint.distance(to: other) <= 6)
            #expect(other.matches(fingerprint))
        }
    }

    @Test("different scenes do not match")
    func differentScenes() {
        let fingerprints = (0..<6).map { PhotoFingerprint(of: scene(width: 320, height: 240, seed: $0 * 7 + 1)) }
        for first in fingerprints.indices {
            for second in fingerprints.indices where second > first {
                #expect(!fingerprints[first].matches(fingerprints[second]), "scenes \(first) and \(second)")
            }
        }
    }

    @Test("base64 round-trips with the features; text of another version or length is no fingerprint")
    func encoding() throws {
        let fingerprint = PhotoFingerprint(of: TestScenes.shapes(width: 400, height: 300, seed: 2))
        #expect(fingerprint.features.count > 0)
        let back = try #require(PhotoFingerprint(base64: fingerprint.base64))
        #expect(back == fingerprint)
        #expect(back.evidence(against: fingerprint) == fingerprint.evidence(against: fingerprint))
        #expect(PhotoFingerprint(base64: "AAAA") == nil)
        #expect(PhotoFingerprint(base64: "not base64!") == nil)
        // Version 1 was the four hashes alone: remembered before an upgrade, it never matches.
        let version1 = Data([1] + [UInt8](repeating: 7, count: 32)).base64EncodedString()
        #expect(PhotoFingerprint(base64: version1) == nil)
        var truncated = [UInt8](Data(base64Encoded: fingerprint.base64)!)
        truncated.removeLast()
        #expect(PhotoFingerprint(base64: Data(truncated).base64EncodedString()) == nil)
    }

    @Test("a 10% crop is found by the features where the hashes differ; another scene is found by neither")
    func cropFoundByFeatures() {
        let plane = TestScenes.shapes(width: 1365, height: 1024, seed: 5)
        let fingerprint = PhotoFingerprint(of: plane)
        let dx = 136, dy = 102
        var pixels: [UInt8] = []
        for y in dy..<plane.height { pixels += plane.pixels[(y * plane.width + dx)..<((y + 1) * plane.width)] }
        let crop = PhotoFingerprint(of: LumaPlane(width: plane.width - dx, height: plane.height - dy, pixels: pixels))
        let evidence = fingerprint.evidence(against: crop)
        #expect(evidence.inliers >= DuplicateRule.default.minimumInliers && evidence.correlation >= 0.75, "\(evidence)")
        #expect(fingerprint.matches(crop))
        let other = PhotoFingerprint(of: TestScenes.shapes(width: 1365, height: 1024, seed: 22))
        #expect(!fingerprint.matches(other), "\(fingerprint.evidence(against: other))")
    }

    @Test("a fingerprint is at most 8 KB (128 keypoints spread over the frame, two bits of detail for at most 12,288 cells) and its bytes round-trip; a copy in a wider frame, whose thumbnail window is another part, still matches")
    func compact() throws {
        let plane = TestScenes.shapes(width: 1365, height: 1024, seed: 5)
        let fingerprint = PhotoFingerprint(of: plane)
        #expect(fingerprint.bytes.count <= PhotoFingerprint.maximumByteCount && PhotoFingerprint.maximumByteCount <= 8192)
        #expect(fingerprint.features.count == PhotoFingerprint.keptKeypoints)
        // A 4:3 photo's detection plane is 682x512: its thumbnail is 170x128 cells, of which the middle 96 columns are kept.
        #expect(fingerprint.thumbnail.width == 96 && fingerprint.thumbnail.height == 128 && fingerprint.thumbnail.originX == 37)
        #expect(PhotoFingerprint(bytes: fingerprint.bytes) == fingerprint)
        // The same picture between flat bars, 16:9.
        let width = 1820, left = (width - plane.width) / 2
        var pixels = [UInt8](repeating: 0, count: width * plane.height)
        for y in 0..<plane.height {
            pixels.replaceSubrange((y * width + left)..<(y * width + left + plane.width), with: plane.pixels[(y * plane.width)..<((y + 1) * plane.width)])
        }
        let framed = PhotoFingerprint(of: LumaPlane(width: width, height: plane.height, pixels: pixels))
        let evidence = fingerprint.evidence(against: framed)
        #expect(fingerprint.matches(framed) && evidence.inliers >= DuplicateRule.default.minimumInliers, "\(evidence)")
        #expect(evidence.correlation >= DuplicateRule.default.minimumCorrelation, "\(evidence)")
    }

    @Test("the rule: hashes within the distance, or enough matches making a large enough share")
    func rule() {
        let rule = DuplicateRule(maximumDistance: 7, minimumInliers: 4, minimumCorrelation: 0.63)
        // The hashes decide when the features align too little to judge.
        #expect(rule.isDuplicate(DuplicateEvidence(hashDistance: 7, inliers: 0, correlation: 0)))
        #expect(rule.isDuplicate(DuplicateEvidence(hashDistance: 7, inliers: 3, correlation: 0.1)))
        #expect(!rule.isDuplicate(DuplicateEvidence(hashDistance: 8, inliers: 0, correlation: 0)))
        // Aligned with alike detail: a crop or a border, whatever the hashes say.
        #expect(rule.isDuplicate(DuplicateEvidence(hashDistance: 30, inliers: 4, correlation: 0.63)))
        // Aligned with different detail: another shot from nearly the same spot, though the hashes agree.
        #expect(!rule.isDuplicate(DuplicateEvidence(hashDistance: 2, inliers: 120, correlation: 0.54)))
        #expect(!rule.isDuplicate(DuplicateEvidence(hashDistance: 7, inliers: 4, correlation: 0.2)))
    }
}
