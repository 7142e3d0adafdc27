import BlurMetrics
import LumaAnalysis
import Testing

/// A deterministic textured plane: overlapping rectangles and discs of random grey on a gradient.
private func scene(width: Int, height: Int, seed: UInt32) -> LumaPlane {
    var state = seed
    func next() -> Int { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return Int(state >> 8) }
    var px = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height { for x in 0..<width { px[y * width + x] = UInt8(40 + (x + y) * 120 / (width + height)) } }
    for shape in 0..<700 {
        let w = 8 + next() % 70, h = 8 + next() % 70
        let x0 = next() % width, y0 = next() % height, v = UInt8(next() % 256)
        let disc = shape % 3 == 0
        for y in y0..<min(height, y0 + h) {
            for x in x0..<min(width, x0 + w) {
                if disc {
                    let dx = 2 * (x - x0) - w, dy = 2 * (y - y0) - h
                    if dx * dx * h * h + dy * dy * w * w > w * w * h * h { continue }
                }
                px[y * width + x] = v
            }
        }
    }
    return LumaPlane(width: width, height: height, pixels: px)
}

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

private let base = scene(width: 1365, height: 1024, seed: 7)
private let baseFeatures = LocalFeatures(of: base)

@Test func detectsTheFullQuota() {
    #expect(baseFeatures.count >= 250 && baseFeatures.count <= 300)
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
    let other = LocalFeatures(of: scene(width: 1365, height: 1024, seed: 99))
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
