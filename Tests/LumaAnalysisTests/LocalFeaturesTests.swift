import BlurMetrics
import LumaAnalysis
import Testing

/// The plane rotated 90 degrees counter-clockwise.
private func rotated(_ p: LumaPlane) -> LumaPlane {
    var out = [UInt8](repeating: 0, count: p.pixels.count)
    for y in 0..<p.height { for x in 0..<p.width { out[(p.width - 1 - x) * p.height + y] = p.pixels[y * p.width + x] } }
    return LumaPlane(width: p.height, height: p.width, pixels: out)
}

/// The central part of the plane without `fraction` of each side (half at each edge).
private func cropped(_ p: LumaPlane, fraction: Double) -> LumaPlane {
    let dx = Int(Double(p.width) * fraction / 2) & ~1, dy = Int(Double(p.height) * fraction / 2) & ~1
    let w = p.width - 2 * dx, h = p.height - 2 * dy
    var out = [UInt8](); out.reserveCapacity(w * h)
    for y in dy..<(dy + h) { out += p.pixels[(y * p.width + dx)..<(y * p.width + dx + w)] }
    return LumaPlane(width: w, height: h, pixels: out)
}

private let base = TestScenes.shapes(width: 1365, height: 1024, seed: 7)
private let baseFeatures = LocalFeatures(of: base)

@Test func keepsTheFullQuotaOfTheSpread() {
    // The extractor finds about 256 corners on this scene and describes the 128 the spread keeps.
    #expect(baseFeatures.count == LocalFeatures.maximumCount)
}

@Test func rotatedCopyAgreesStrongly() {
    let r = baseFeatures.agreement(with: LocalFeatures(of: rotated(base)))
    #expect(r.inliers >= 20)
    #expect(r.share >= 0.6)
}

@Test func croppedCopyAgreesStrongly() {
    let r = baseFeatures.agreement(with: LocalFeatures(of: cropped(base, fraction: 0.1)))
    #expect(r.inliers >= 20)
    #expect(r.share >= 0.6)
}

@Test func differentScenesDoNotAgree() {
    let other = LocalFeatures(of: TestScenes.shapes(width: 1365, height: 1024, seed: 99))
    let r = baseFeatures.agreement(with: other)
    #expect(r.share < 0.6 || r.inliers < 6)
    let s = other.agreement(with: baseFeatures)
    #expect(s.share < 0.6 || s.inliers < 6)
}

@Test func bytesRoundTrip() throws {
    let bytes = baseFeatures.bytes
    #expect(bytes.count == 6 + 36 * baseFeatures.count)
    let back = try #require(LocalFeatures(bytes: bytes))
    #expect(back == baseFeatures)
    #expect(back.bytes == bytes)
    #expect(back.agreement(with: baseFeatures).inliers == baseFeatures.agreement(with: baseFeatures).inliers)
}

@Test func malformedBytesGiveNil() {
    let bytes = baseFeatures.bytes
    #expect(LocalFeatures(bytes: []) == nil)
    #expect(LocalFeatures(bytes: Array(bytes.prefix(5))) == nil)
    #expect(LocalFeatures(bytes: Array(bytes.dropLast())) == nil)
    #expect(LocalFeatures(bytes: bytes + [0]) == nil)
    var magic = bytes; magic[0] = 0
    #expect(LocalFeatures(bytes: magic) == nil)
    var version = bytes; version[2] = 9
    #expect(LocalFeatures(bytes: version) == nil)
    var bits = bytes; bits[3] = 200
    #expect(LocalFeatures(bytes: bits) == nil)
    var count = bytes; count[4] &+= 1
    #expect(LocalFeatures(bytes: count) == nil)
}

@Test func tinyAndFlatPlanesHaveNoFeatures() {
    for p in [LumaPlane(width: 1, height: 1, pixels: [0]), LumaPlane(width: 40, height: 30, pixels: .init(repeating: 9, count: 1200)),
              LumaPlane(width: 800, height: 600, pixels: .init(repeating: 128, count: 480_000))] {
        let f = LocalFeatures(of: p)
        #expect(f.count == 0)
        #expect(f.agreement(with: baseFeatures) == (0, 0))
        #expect(LocalFeatures(bytes: f.bytes) == f)
    }
}

/// The plane halved with 2x2 box means, as a photo saved at half its size.
private func halvedCopy(_ p: LumaPlane) -> LumaPlane {
    let w = p.width / 2, h = p.height / 2
    var out = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h {
        for x in 0..<w {
            let s = Int(p.pixels[2 * y * p.width + 2 * x]) + Int(p.pixels[2 * y * p.width + 2 * x + 1])
                + Int(p.pixels[(2 * y + 1) * p.width + 2 * x]) + Int(p.pixels[(2 * y + 1) * p.width + 2 * x + 1])
            out[y * w + x] = UInt8((s + 2) / 4)
        }
    }
    return LumaPlane(width: w, height: h, pixels: out)
}

@Test func smallerCopiesAreComparedAtOneScale() {
    // A photo's analysis plane is its own size when it is smaller than the analysis size: a copy
    // saved at a half and a quarter of the size must still be found.
    let half = halvedCopy(base), quarter = halvedCopy(half)
    for copy in [half, quarter] {
        let r = baseFeatures.agreement(with: LocalFeatures(of: copy))
        #expect(r.inliers >= 20, "\(copy.width)x\(copy.height): \(r)")
        #expect(r.share >= 0.6, "\(copy.width)x\(copy.height): \(r)")
    }
}
