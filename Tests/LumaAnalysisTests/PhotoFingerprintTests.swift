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
        let plane = scene(width: 320, height: 240, seed: 3)
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

    @Test("base64 round-trips; text of another version or length is no fingerprint")
    func encoding() {
        let fingerprint = PhotoFingerprint(of: scene(width: 100, height: 80, seed: 2))
        #expect(PhotoFingerprint(base64: fingerprint.base64) == fingerprint)
        #expect(PhotoFingerprint(base64: "AAAA") == nil)
        #expect(PhotoFingerprint(base64: "not base64!") == nil)
    }
}
