import BlurMetrics
#if arch(x86_64)
import FingerprintAVX2
#endif

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

    /// `halved(plane)` and `QuarterPlane.of(plane)` from one pass over the plane (a quarter block is
    /// two by two halved blocks, each summed before its rounding); nil when a side is under 4. By the
    /// loops of `path` (the same bytes).
    static func halvedAndQuartered(_ plane: LumaPlane, path: KernelPath = .best) -> (half: LumaPlane, quarter: LumaPlane)? {
        let hw = plane.width / 2, hh = plane.height / 2, qw = plane.width / 4, qh = plane.height / 4
        guard qw > 0, qh > 0 else { return nil }
        let sw = plane.width, chunks = plane.width / 16
        var quarter = [UInt8](repeating: 0, count: qw * qh)
        let half = plane.pixels.withUnsafeBufferPointer { src in
            quarter.withUnsafeMutableBufferPointer { qb in
                [UInt8](unsafeUninitializedCapacity: hw * hh) { hb, initialized in
                    let s = UnsafeRawPointer(src.baseAddress!), h = hb.baseAddress!, q = qb.baseAddress!
                    /// The 2x2 sum of source rows `top` and `top + 1` at half column x.
                    @inline(__always) func pairSum(_ top: Int, _ x: Int) -> UInt16 {
                        let a = s.load(fromByteOffset: top &* sw &+ 2 &* x, as: UInt8.self), b = s.load(fromByteOffset: top &* sw &+ 2 &* x &+ 1, as: UInt8.self)
                        let c = s.load(fromByteOffset: (top &+ 1) &* sw &+ 2 &* x, as: UInt8.self), d = s.load(fromByteOffset: (top &+ 1) &* sw &+ 2 &* x &+ 1, as: UInt8.self)
                        return UInt16(a) &+ UInt16(b) &+ UInt16(c) &+ UInt16(d)
                    }
                    /// The eight 2x2 sums of sixteen source samples of rows `top` and `top + 1`, one per 16-bit lane.
                    @inline(__always) func pairSums(_ top: Int, _ chunk: Int) -> SIMD8<UInt16> {
                        let a = s.loadUnaligned(fromByteOffset: top &* sw &+ 16 &* chunk, as: SIMD8<UInt16>.self)
                        let b = s.loadUnaligned(fromByteOffset: (top &+ 1) &* sw &+ 16 &* chunk, as: SIMD8<UInt16>.self)
                        return (a & 0xFF) &+ (a &>> 8) &+ (b & 0xFF) &+ (b &>> 8)
                    }
                    @inline(__always) func store(_ v: SIMD8<UInt16>, _ o: UnsafeMutablePointer<UInt8>) {
                        let r = (v &+ 2) &>> 2
                        for lane in 0..<8 { o[lane] = UInt8(truncatingIfNeeded: r[lane]) }
                    }
                    for qy in 0..<qh {
                        let top = 4 &* qy, upper = h + 2 &* qy &* hw, lower = upper + hw, qo = q + qy &* qw
                        var first = 0
                        #if arch(x86_64)
                        if path == .avx2 {
                            // Pairs of chunks at AVX2 width; an odd last chunk goes to the loop below.
                            PlaneHalvingAVX2.halveAndQuarter(src.baseAddress!, width: sw, top: top, chunks: chunks / 2,
                                                             upper: upper, lower: lower, quarter: qo)
                            first = chunks / 2 * 2
                        }
                        #endif
                        for chunk in first..<chunks {
                            let s0 = pairSums(top, chunk), s1 = pairSums(top &+ 2, chunk)
                            store(s0, upper + 8 &* chunk)
                            store(s1, lower + 8 &* chunk)
                            // Neighbouring 2x2 sums of both row pairs add up to the 4x4 sums, one per 32-bit lane.
                            let w = unsafeBitCast(s0 &+ s1, to: SIMD4<UInt32>.self)
                            let means = (((w & 0xFFFF) &+ (w &>> 16)) &+ 8) &>> 4
                            for lane in 0..<4 { qo[4 &* chunk &+ lane] = UInt8(truncatingIfNeeded: means[lane]) }
                        }
                        for x in (8 &* chunks)..<hw {
                            let s0 = pairSum(top, x), s1 = pairSum(top &+ 2, x)
                            upper[x] = UInt8(truncatingIfNeeded: (s0 &+ 2) &>> 2)
                            lower[x] = UInt8(truncatingIfNeeded: (s1 &+ 2) &>> 2)
                        }
                        for x in (4 &* chunks)..<qw {
                            let sum = pairSum(top, 2 &* x) &+ pairSum(top, 2 &* x &+ 1) &+ pairSum(top &+ 2, 2 &* x) &+ pairSum(top &+ 2, 2 &* x &+ 1)
                            qo[x] = UInt8(truncatingIfNeeded: (sum &+ 8) &>> 4)
                        }
                    }
                    // An odd count of halved rows leaves the last one below every quarter block.
                    for y in (2 &* qh)..<hh {
                        for x in 0..<hw { h[y &* hw &+ x] = UInt8(truncatingIfNeeded: (pairSum(2 &* y, x) &+ 2) &>> 2) }
                    }
                    initialized = hw * hh
                }
            }
        }
        return (LumaPlane(width: hw, height: hh, pixels: half), LumaPlane(width: qw, height: qh, pixels: quarter))
    }

    /// The plane resized to width x height by bilinear interpolation with pixel-centre alignment, as OpenCV's INTER_LINEAR_EXACT up to fixed-point rounding (7-bit weights on both axes);
    /// by the loops of `path` (the same bytes).
    static func resizedBilinear(_ plane: LumaPlane, width: Int, height: Int, path: KernelPath = .best) -> LumaPlane {
        precondition(plane.width > 1)
        let sw = plane.width, sh = plane.height
        let xScale = Double(sw) / Double(width), yScale = Double(sh) / Double(height)
        // Per output column: the left source column and the right one's weight (of 128).
        var columns = [Int32](repeating: 0, count: width), weights = [UInt32](repeating: 0, count: width)
        for x in 0..<width {
            var (i, f) = tap(Double(x), scale: xScale, size: sw)
            // The last column reads its right neighbour at full weight instead, so every tap has two valid pixels.
            if i == sw - 1 && sw > 1 { i = sw - 2; f = 1 }
            columns[x] = Int32(i); weights[x] = UInt32((f * 128).rounded())
        }
        // Eight samples past the row, so the AVX2 blend's 16-byte windows never leave the buffer.
        var blended = [UInt16](repeating: 0, count: sw + 8)
        #if arch(x86_64)
        let groups = path == .avx2 ? ShuffleGroups(columns: columns, weights: weights) : nil
        #endif
        // Every output row is written below, so the array is not zeroed first.
        let out = plane.pixels.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: width * height) { dst, initialized in
                columns.withUnsafeBufferPointer { cp in weights.withUnsafeBufferPointer { wp in
                    blended.withUnsafeMutableBufferPointer { vb in
                        let s = src.baseAddress!, v = vb.baseAddress!
                        for y in 0..<height {
                            let (sy, fy) = tap(Double(y), scale: yScale, size: sh)
                            let wb = UInt16((fy * 128).rounded()), wa = 128 - wb
                            // The two source rows blended first, across the whole row (the loop vectorises), then
                            // each output sample reads its pair: one gather per output sample instead of one per
                            // sample of every source row. The sums are the same exact integers either way.
                            verticalBlend(s + sy * sw, s + min(sy + 1, sh - 1) * sw, wa, wb, into: v, count: sw, path: path)
                            let o = dst.baseAddress! + y * width
                            #if arch(x86_64)
                            var done = 0
                            if let groups {
                                groups.starts.withUnsafeBufferPointer { st in groups.masks.withUnsafeBufferPointer { m in
                                    groups.weights.withUnsafeBufferPointer { gw in
                                        PlaneResamplingAVX2.horizontalBlend(v, starts: st.baseAddress!, masks: m.baseAddress!, weights: gw.baseAddress!,
                                                                            groups: groups.count, into: o)
                                    }
                                } }
                                done = 8 * groups.count
                            }
                            #else
                            let done = 0
                            #endif
                            horizontalBlend(v, cp.baseAddress! + done, wp.baseAddress! + done, into: o + done, count: width - done)
                        }
                    }
                } }
                initialized = width * height
            }
        }
        return LumaPlane(width: width, height: height, pixels: out)
    }

    /// The plane blurred with OpenCV's 7x7 Gaussian of sigma 2 (8-bit fixed-point weights): each row filtered and
    /// rounded, then each column; the 3-pixel frame, never sampled by descriptors, is copied unblurred.
    static func gaussianBlurred7(_ plane: LumaPlane, path: KernelPath = .best) -> LumaPlane {
        var out: [UInt8] = []
        gaussianBlurred7(plane, into: &out, path: path)
        return LumaPlane(width: plane.width, height: plane.height, pixels: out)
    }

    /// `gaussianBlurred7(plane)`'s samples written to the first width x height of `out`, which grows to
    /// that size when it is smaller (the pyramid's levels, each smaller than the last, share one buffer).
    static func gaussianBlurred7(_ plane: LumaPlane, into out: inout [UInt8], path: KernelPath = .best) {
        let w = plane.width, h = plane.height
        guard out.count >= w * h else {
            // A new buffer is not zeroed first: every sample is written (the frame copied, the rest filtered).
            out = [UInt8](unsafeUninitializedCapacity: w * h) { buffer, initialized in
                blur(plane, into: buffer.baseAddress!, path: path)
                initialized = w * h
            }
            return
        }
        out.withUnsafeMutableBufferPointer { blur(plane, into: $0.baseAddress!, path: path) }
    }

    /// `gaussianBlurred7(plane)`'s samples within `radius` (a square) of each of `centres`, written to
    /// `out` (rows of the plane's width; grown to the plane's size when smaller); its other samples are
    /// left unspecified, as the descriptors read the blur near their keypoints only. Each sample is the
    /// same row-then-column sum as the whole plane's; the whole plane is blurred when a centre is within
    /// `radius + 10` of an edge.
    static func gaussianBlurred7(_ plane: LumaPlane, near centres: [(x: Int, y: Int)], radius: Int, into out: inout [UInt8], path: KernelPath = .best) {
        let w = plane.width, h = plane.height, reach = radius + 3
        // A band of 8 rows is filtered whole, with 3 rows more above and below: up to 10 rows past a centre's square.
        guard centres.allSatisfy({ $0.x >= reach && $0.x < w - reach && $0.y >= radius + 10 && $0.y < h - radius - 10 }) else {
            gaussianBlurred7(plane, into: &out, path: path)
            return
        }
        if out.count < w * h { out = [UInt8](repeating: 0, count: w * h) }
        guard !centres.isEmpty else { return }
        let byColumn = centres.sorted { $0.x < $1.x }
        // Rows go in bands of 8 sharing their column ranges, so the ranges are worked out once a band.
        let bandCount = (h + 7) / 8
        // Each band's merged column ranges within `radius` of the centres whose rows within `radius`
        // meet the band's rows (`low..<high`), the centres taken in column order. A band's output rows
        // read the row-filtered source rows 3 above and below, so a source band's ranges take in every
        // centre near the rows within 3 of it (samples of a band's rows farther from a centre than
        // `radius` may read source rows not filtered there, and are never read). Each centre is added
        // to the few bands it meets, not every band tested against every centre.
        var outputColumns = [[Range<Int>]](repeating: [], count: bandCount)
        var sourceColumns = [[Range<Int>]](repeating: [], count: bandCount)
        /// Adds centre `c`'s columns to `ranges`, merged with the last when they meet.
        func add(_ c: (x: Int, y: Int), to ranges: inout [Range<Int>]) {
            if let last = ranges.last, c.x - radius <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound..<(c.x + radius + 1)
            } else {
                ranges.append((c.x - radius)..<(c.x + radius + 1))
            }
        }
        for c in byColumn {
            // The bands whose rows, or rows within 3 of them, can meet the centre's.
            for band in max(0, (c.y - radius - 11) / 8 - 1)...min(bandCount - 1, (c.y + radius + 3) / 8 + 1) {
                if c.y + radius >= 8 * band && c.y - radius < 8 * band + 8 { add(c, to: &outputColumns[band]) }
                if c.y + radius >= 8 * band - 3 && c.y - radius < 8 * band + 11 { add(c, to: &sourceColumns[band]) }
            }
        }
        var ring = [UInt8](repeating: 0, count: 7 * w)
        plane.pixels.withUnsafeBufferPointer { src in
            ring.withUnsafeMutableBufferPointer { rb in
                out.withUnsafeMutableBufferPointer { ob in
                    let s = src.baseAddress!, r = rb.baseAddress!, d = ob.baseAddress!
                    var nextSource = 0
                    for band in 0..<bandCount where !outputColumns[band].isEmpty {
                        for y in (8 * band)..<min(8 * band + 8, h) {
                            for source in max(nextSource, y - 3)...(y + 3) {
                                for span in sourceColumns[source / 8] {
                                    filterRun(s + source * w - 3, step: 1, into: r + source % 7 * w, from: span.lowerBound, to: span.upperBound, path: path)
                                }
                            }
                            nextSource = y + 4
                            for span in outputColumns[band] {
                                filterColumns(r + (y - 3) % 7 * w, r + (y - 2) % 7 * w, r + (y - 1) % 7 * w, r + y % 7 * w,
                                              r + (y + 1) % 7 * w, r + (y + 2) % 7 * w, r + (y + 3) % 7 * w, into: d + y * w,
                                              from: span.lowerBound, to: span.upperBound, path: path)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func blur(_ plane: LumaPlane, into d: UnsafeMutablePointer<UInt8>, path: KernelPath) {
        let w = plane.width, h = plane.height
        guard w > 6, h > 6 else {
            plane.pixels.withUnsafeBufferPointer { d.update(from: $0.baseAddress!, count: w * h) }
            return
        }
        // Row-filtered rows are kept for the seven rows a column tap reads, not for the whole plane.
        var ring = [UInt8](repeating: 0, count: 7 * w)
        plane.pixels.withUnsafeBufferPointer { src in
            ring.withUnsafeMutableBufferPointer { rb in
                let s = src.baseAddress!, r = rb.baseAddress!
                d.update(from: s, count: 3 * w)
                (d + (h - 3) * w).update(from: s + (h - 3) * w, count: 3 * w)
                for y in 0..<6 { filterRun(s + y * w - 3, step: 1, into: r + y * w, from: 3, to: w - 3, path: path) }
                for y in 3..<(h - 3) {
                    filterRun(s + (y + 3) * w - 3, step: 1, into: r + (y + 3) % 7 * w, from: 3, to: w - 3, path: path)
                    let o = d + y * w, row = s + y * w
                    o.update(from: row, count: 3)
                    (o + w - 3).update(from: row + w - 3, count: 3)
                    filterColumns(r + (y - 3) % 7 * w, r + (y - 2) % 7 * w, r + (y - 1) % 7 * w, r + y % 7 * w,
                                  r + (y + 1) % 7 * w, r + (y + 2) % 7 * w, r + (y + 3) % 7 * w, into: o, from: 3, to: w - 3, path: path)
                }
            }
        }
    }

    private static func tap(_ d: Double, scale: Double, size: Int) -> (Int, Double) {
        let f = (d + 0.5) * scale - 0.5
        var i = Int(f.rounded(.down))
        var frac = f - Double(i)
        if i < 0 { i = 0; frac = 0 }
        if i >= size - 1 { i = size - 1; frac = 0 }
        return (i, frac)
    }

    private static func verticalBlend(_ upper: UnsafePointer<UInt8>, _ lower: UnsafePointer<UInt8>, _ wa: UInt16, _ wb: UInt16,
                                      into v: UnsafeMutablePointer<UInt16>, count: Int, path: KernelPath) {
        #if arch(x86_64)
        if path == .avx2 {
            PlaneResamplingAVX2.verticalBlend(upper, lower, wa, wb, into: v, count: count)
            return
        }
        #endif
        for j in 0..<count { v[j] = UInt16(upper[j]) &* wa &+ UInt16(lower[j]) &* wb }
    }

    private static func horizontalBlend(_ v: UnsafePointer<UInt16>, _ columns: UnsafePointer<Int32>, _ weights: UnsafePointer<UInt32>,
                                        into o: UnsafeMutablePointer<UInt8>, count: Int) {
        let pairs = UnsafeRawPointer(v)
        @inline(__always) func pair(_ i: Int32) -> UInt32 {
            UInt32(littleEndian: pairs.loadUnaligned(fromByteOffset: 2 &* Int(i), as: UInt32.self))
        }
        var x = 0
        // Four outputs per step: each 32-bit lane holds one output's two blended samples, read with one load.
        while x &+ 4 <= count {
            let c = UnsafeRawPointer(columns + x).loadUnaligned(as: SIMD4<Int32>.self)
            let b = UnsafeRawPointer(weights + x).loadUnaligned(as: SIMD4<UInt32>.self)
            let p = SIMD4<UInt32>(pair(c[0]), pair(c[1]), pair(c[2]), pair(c[3]))
            // Exact sums with one final rounding keep the result the same for a transposed image.
            let r = ((p & 0xFFFF) &* (128 &- b) &+ (p &>> 16) &* b &+ 8192) &>> 14
            for lane in 0..<4 { o[x &+ lane] = UInt8(truncatingIfNeeded: r[lane]) }
            x &+= 4
        }
        while x < count {
            let p = pair(columns[x]), b = weights[x]
            o[x] = UInt8(truncatingIfNeeded: ((p & 0xFFFF) &* (128 &- b) &+ (p &>> 16) &* b &+ 8192) &>> 14)
            x &+= 1
        }
    }

    // Weights 18, 33, 49, 56 are exp(-i²/8) normalised to a sum of 256.
    // Plain wrapping arithmetic on pointers so the optimiser vectorises the loop.
    private static func filterRun(_ s: UnsafePointer<UInt8>, step: Int, into o: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int, path: KernelPath) {
        filterColumns(s, s + step, s + 2 * step, s + 3 * step, s + 4 * step, s + 5 * step, s + 6 * step, into: o, from: x0, to: x1, path: path)
    }

    // The seven taps of the filter, each read from its own row.
    private static func filterColumns(_ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>, _ r2: UnsafePointer<UInt8>, _ r3: UnsafePointer<UInt8>,
                                      _ r4: UnsafePointer<UInt8>, _ r5: UnsafePointer<UInt8>, _ r6: UnsafePointer<UInt8>,
                                      into o: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int, path: KernelPath) {
        #if arch(x86_64)
        if path == .avx2 {
            PlaneResamplingAVX2.filterColumns(r0, r1, r2, r3, r4, r5, r6, into: o, from: x0, to: x1)
            return
        }
        #endif
        for x in x0..<x1 {
            var acc = (UInt16(r0[x]) &+ UInt16(r6[x])) &* 18
            acc = acc &+ (UInt16(r1[x]) &+ UInt16(r5[x])) &* 33
            acc = acc &+ (UInt16(r2[x]) &+ UInt16(r4[x])) &* 49
            acc = acc &+ UInt16(r3[x]) &* 56
            o[x] = UInt8(truncatingIfNeeded: (acc &+ 128) &>> 8)
        }
    }
}
