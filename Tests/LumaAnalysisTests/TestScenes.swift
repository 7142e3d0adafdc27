import BlurMetrics

/// Planes the fingerprint tests share.
enum TestScenes {
    /// A deterministic textured plane: overlapping rectangles and discs of random grey on a gradient.
    static func shapes(width: Int, height: Int, seed: UInt32) -> LumaPlane {
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

    /// A deterministic plane of pseudo-random samples, with runs of 0 and 255 so the sums reach their extremes.
    static func noise(width: Int, height: Int, seed: UInt64) -> LumaPlane {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        let pixels: [UInt8] = (0..<(width * height)).map { index in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            switch (index / 7) % 5 {
            case 0: return 255
            case 1: return 0
            default: return UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        return LumaPlane(width: width, height: height, pixels: pixels)
    }
}
