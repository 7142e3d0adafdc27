import BlurMetrics

/// The resampling steps of the local-features pipeline: halving, the bilinear pyramid step and the descriptor blur.
enum PlaneResampling {
    /// The plane halved to (width / 2, height / 2) with rounded 2x2 box means, as OpenCV's INTER_AREA does for a factor of 2; nil when a side would be empty.
    static func halved(_ plane: LumaPlane) -> LumaPlane? {
        let w = plane.width / 2, h = plane.height / 2
        guard w > 0, h > 0 else { return nil }
        let sw = plane.width
        var out = [UInt8](repeating: 0, count: w * h)
        plane.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                let s = UnsafeRawPointer(src.baseAddress!), d = dst.baseAddress!
                for y in 0..<h {
                    let r0 = s + 2 * y * sw, r1 = r0 + sw, o = d + y * w
                    // One 16-bit load fetches a horizontal pair; the loop vectorises.
                    for x in 0..<w {
                        let a = UInt16(littleEndian: r0.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                        let b = UInt16(littleEndian: r1.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                        let sum = (a & 0xFF) &+ (a &>> 8) &+ (b & 0xFF) &+ (b &>> 8)
                        o[x] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
                    }
                }
            }
        }
        return LumaPlane(width: w, height: h, pixels: out)
    }

    /// The plane resized to width x height by bilinear interpolation with pixel-centre alignment, as OpenCV's INTER_LINEAR_EXACT up to fixed-point rounding (7-bit weights on both axes).
    static func resizedBilinear(_ plane: LumaPlane, width: Int, height: Int) -> LumaPlane {
        precondition(plane.width > 1)
        let sw = plane.width, sh = plane.height
        let xScale = Double(sw) / Double(width), yScale = Double(sh) / Double(height)
        var taps = [Int32](repeating: 0, count: 2 * width)
        for x in 0..<width {
            var (i, f) = tap(Double(x), scale: xScale, size: sw)
            // The last column reads its right neighbour at full weight instead, so every tap has two valid pixels.
            if i == sw - 1 && sw > 1 { i = sw - 2; f = 1 }
            taps[2 * x] = Int32(i); taps[2 * x + 1] = Int32((f * 128).rounded())
        }
        var out = [UInt8](repeating: 0, count: width * height)
        var rows = [UInt16](repeating: 0, count: 2 * width)
        plane.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                taps.withUnsafeBufferPointer { tp in
                    rows.withUnsafeMutableBufferPointer { rb in
                        let s = src.baseAddress!, t = tp.baseAddress!
                        var upper = rb.baseAddress!, lower = upper + width
                        var haveUpper = -1, haveLower = -1
                        for y in 0..<height {
                            let (sy, fy) = tap(Double(y), scale: yScale, size: sh)
                            let sy1 = min(sy + 1, sh - 1)
                            // Source rows are interpolated horizontally once; the buffers swap roles as y advances.
                            if haveUpper != sy {
                                if haveLower == sy { swap(&upper, &lower); swap(&haveUpper, &haveLower) }
                                else { horizontal(s + sy * sw, t, into: upper, count: width); haveUpper = sy }
                            }
                            if haveLower != sy1 { horizontal(s + sy1 * sw, t, into: lower, count: width); haveLower = sy1 }
                            let wb = UInt32((fy * 128).rounded()), wa = 128 - wb
                            let o = dst.baseAddress! + y * width
                            // Exact sums with one final rounding keep the result the same for a transposed image.
                            for x in 0..<width {
                                o[x] = UInt8(truncatingIfNeeded: (UInt32(upper[x]) &* wa &+ UInt32(lower[x]) &* wb &+ 8192) &>> 14)
                            }
                        }
                    }
                }
            }
        }
        return LumaPlane(width: width, height: height, pixels: out)
    }

    /// The plane blurred with OpenCV's 7x7 Gaussian of sigma 2 (8-bit fixed-point weights); the 3-pixel frame, never sampled by descriptors, is copied unblurred.
    static func gaussianBlurred7(_ plane: LumaPlane) -> LumaPlane {
        let w = plane.width, h = plane.height
        guard w > 6, h > 6 else { return plane }
        var tmp = plane.pixels
        var out = plane.pixels
        plane.pixels.withUnsafeBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { t in
                let s = UnsafeRawPointer(src.baseAddress!), d = UnsafeMutableRawPointer(t.baseAddress!)
                for y in 0..<h { filterRun(s + y * w - 3, step: 1, into: d + y * w, from: 3, to: w - 3) }
            }
            out.withUnsafeMutableBufferPointer { o in
                tmp.withUnsafeBufferPointer { t in
                    let s = UnsafeRawPointer(t.baseAddress!), d = UnsafeMutableRawPointer(o.baseAddress!)
                    for y in 3..<(h - 3) { filterRun(s + (y - 3) * w, step: w, into: d + y * w, from: 3, to: w - 3) }
                }
            }
        }
        return LumaPlane(width: w, height: h, pixels: out)
    }

    private static func tap(_ d: Double, scale: Double, size: Int) -> (Int, Double) {
        let f = (d + 0.5) * scale - 0.5
        var i = Int(f.rounded(.down))
        var frac = f - Double(i)
        if i < 0 { i = 0; frac = 0 }
        if i >= size - 1 { i = size - 1; frac = 0 }
        return (i, frac)
    }

    private static func horizontal(_ row: UnsafePointer<UInt8>, _ taps: UnsafePointer<Int32>, into r: UnsafeMutablePointer<UInt16>, count: Int) {
        for x in 0..<count {
            let i = Int(taps[2 * x]), b = UInt16(truncatingIfNeeded: taps[2 * x + 1])
            let p0 = UInt16(row[i]), p1 = UInt16(row[i + 1])
            r[x] = p0 &* (128 &- b) &+ p1 &* b
        }
    }

    // Weights 18, 33, 49, 56 are exp(-i²/8) normalised to a sum of 256.
    // Plain wrapping arithmetic on pointers so the optimiser vectorises the loop.
    private static func filterRun(_ s: UnsafeRawPointer, step: Int, into d: UnsafeMutableRawPointer, from x0: Int, to x1: Int) {
        let b = s.assumingMemoryBound(to: UInt8.self), o = d.assumingMemoryBound(to: UInt8.self)
        let r0 = b, r1 = b + step, r2 = b + 2 * step, r3 = b + 3 * step, r4 = b + 4 * step, r5 = b + 5 * step, r6 = b + 6 * step
        for x in x0..<x1 {
            var acc = (UInt16(r0[x]) &+ UInt16(r6[x])) &* 18
            acc = acc &+ (UInt16(r1[x]) &+ UInt16(r5[x])) &* 33
            acc = acc &+ (UInt16(r2[x]) &+ UInt16(r4[x])) &* 49
            acc = acc &+ UInt16(r3[x]) &* 56
            o[x] = UInt8(truncatingIfNeeded: (acc &+ 128) &>> 8)
        }
    }
}
