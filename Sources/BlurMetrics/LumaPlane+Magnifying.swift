extension LumaPlane {
    /// The long side, in pixels, at which a person judges whether a photo is blurry (issue 48's
    /// label: the photo shown at 1024 px on its long side).
    public static let displayLongSide = 1024

    /// The plane as a person sees it when the photo is shown at `longSide` px on its long side,
    /// for a plane smaller than that: magnified by bicubic convolution (Keys, a = -0.5, the
    /// kernel of Pillow's and most viewers' BICUBIC), centre-aligned, weights renormalised at the
    /// edges, rows first and then columns, each pass rounded to 8 bits. Nil when the plane's
    /// long side is already `longSide` or more: nothing to magnify.
    ///
    /// A shake of 1.5 px on a 500 px photo is 3 px on the screen: measured at the photo's own
    /// size it looks as sharp as a 1024 px photo with half that shake.
    public func magnified(toLongSide longSide: Int = LumaPlane.displayLongSide) -> LumaPlane? {
        let long = Swift.max(width, height)
        guard long < longSide, long > 0 else { return nil }
        let scale = Double(longSide) / Double(long)
        let targetWidth = width >= height ? longSide : Swift.max(1, Int((Double(width) * scale).rounded()))
        let targetHeight = height > width ? longSide : Swift.max(1, Int((Double(height) * scale).rounded()))
        let across = CubicTaps(sourceCount: width, targetCount: targetWidth)
        let down = CubicTaps(sourceCount: height, targetCount: targetHeight)
        // Rows first, into an intermediate of the target's width and the source's height.
        var wide = [UInt8](repeating: 0, count: targetWidth * height)
        pixels.withUnsafeBufferPointer { source in
            wide.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = source.baseAddress! + y * width
                    let target = out.baseAddress! + y * targetWidth
                    for x in 0..<targetWidth {
                        target[x] = across.sample(x) { row[$0] }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: targetWidth * targetHeight)
        wide.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<targetHeight {
                    let row = target.baseAddress! + y * targetWidth
                    let first = down.first[y], count = down.count[y], weights = y * down.stride
                    for x in 0..<targetWidth {
                        var sum: Float = 0
                        for k in 0..<count {
                            sum += down.weights[weights + k] * Float(source[(first + k) * targetWidth + x])
                        }
                        row[x] = CubicTaps.clamped(sum)
                    }
                }
            }
        }
        return LumaPlane(width: targetWidth, height: targetHeight, pixels: out)
    }
}

/// The taps of a bicubic magnification along one axis: for each target sample, the first source
/// sample it reads, how many, and their weights (summing to 1).
private struct CubicTaps {
    /// The first source sample of each target sample.
    let first: [Int]
    /// How many source samples each target sample reads.
    let count: [Int]
    /// `stride` weights per target sample, the first `count[i]` of them used.
    let weights: [Float]
    /// Weights kept per target sample.
    let stride: Int

    init(sourceCount: Int, targetCount: Int) {
        let ratio = Double(sourceCount) / Double(targetCount)
        // Magnifying: the kernel keeps its own support of 2 source samples each side.
        let support = 2.0
        stride = 5
        var first = [Int](repeating: 0, count: targetCount)
        var count = [Int](repeating: 0, count: targetCount)
        var weights = [Float](repeating: 0, count: targetCount * stride)
        for i in 0..<targetCount {
            let centre = (Double(i) + 0.5) * ratio
            let low = Swift.max(Int(centre - support + 0.5), 0)
            let high = Swift.min(Int(centre + support + 0.5), sourceCount)
            let taps = Swift.min(high - low, stride)
            var total = 0.0
            var local = [Double](repeating: 0, count: taps)
            for k in 0..<taps {
                let w = Self.keys(Double(low + k) - centre + 0.5)
                local[k] = w
                total += w
            }
            first[i] = low
            count[i] = taps
            for k in 0..<taps {
                weights[i * stride + k] = Float(total != 0 ? local[k] / total : 0)
            }
        }
        self.first = first
        self.count = count
        self.weights = weights
    }

    /// Keys' cubic convolution kernel with a = -0.5.
    static func keys(_ x: Double) -> Double {
        let a = -0.5, t = Swift.abs(x)
        if t < 1 { return ((a + 2) * t - (a + 3)) * t * t + 1 }
        if t < 2 { return (((t - 5) * t + 8) * t - 4) * a }
        return 0
    }

    /// Target sample `i` from the source samples `source` gives.
    @inline(__always)
    func sample(_ i: Int, _ source: (Int) -> UInt8) -> UInt8 {
        var sum: Float = 0
        let base = i * stride, low = first[i]
        for k in 0..<count[i] {
            sum += weights[base + k] * Float(source(low + k))
        }
        return Self.clamped(sum)
    }

    /// `value` rounded to the nearest 8-bit level.
    @inline(__always)
    static func clamped(_ value: Float) -> UInt8 {
        UInt8(Swift.min(Swift.max(value.rounded(), 0), 255))
    }
}
