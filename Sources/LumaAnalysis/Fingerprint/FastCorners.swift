import BlurMetrics
#if arch(x86_64)
import FingerprintAVX2
#endif

/// FAST-9 corner detection (16-pixel Bresenham circle of radius 3) with non-maximum suppression, as OpenCV's FastFeatureDetector.
enum FastCorners {
    /// A detected corner: integer pixel position and FAST score (the largest threshold at which it is still a corner).
    struct Corner: Equatable {
        /// Column of the corner.
        var x: Int
        /// Row of the corner.
        var y: Int
        /// OpenCV's FAST corner score.
        var score: Int
    }

    private static let circle: [(Int, Int)] = [
        (0, 3), (1, 3), (2, 2), (3, 1), (3, 0), (3, -1), (2, -2), (1, -3),
        (0, -3), (-1, -3), (-2, -2), (-3, -1), (-3, 0), (-3, 1), (-2, 2), (-1, 3),
    ]

    /// Non-max-suppressed FAST-9 corners at least `border` pixels inside every edge, row by row (within a row,
    /// each 16-pixel chunk's brighter corners before its darker ones); only those on `rows` when given. The
    /// candidate test runs by the loops of `path` (the same corners in the same order).
    static func detect(in image: LumaPlane, threshold: Int, border: Int, rows: Range<Int>? = nil, path: KernelPath = .best) -> [Corner] {
        let w = image.width, h = image.height
        let top = max(border, rows?.lowerBound ?? border), bottom = min(h - border, rows?.upperBound ?? h - border)
        // Scores are needed one pixel outside the kept area for the suppression.
        let x0 = max(border - 1, 3), x1 = min(w - border + 1, w - 3)
        let y0 = max(top - 1, 3), y1 = min(bottom + 1, h - 3)
        guard x1 - x0 >= 16, y1 - y0 >= 3 else { return [] }
        var offsets = [Int](repeating: 0, count: 25)
        for k in 0..<25 { let (dx, dy) = circle[k % 16]; offsets[k] = dx + dy * w }
        // Scores of three rows, the most the suppression reads at once: a plane-sized array here was
        // fresh memory for every level and pass, and its page faults cost more than the scan.
        var ring = [UInt8](repeating: 0, count: 3 * w)
        var previous: [Int] = [], current: [Int] = []
        previous.reserveCapacity(256); current.reserveCapacity(256)
        var corners: [Corner] = []
        corners.reserveCapacity(1024)
        let t = UInt8(clamping: threshold)
        image.pixels.withUnsafeBufferPointer { src in
            offsets.withUnsafeBufferPointer { off in
                ring.withUnsafeMutableBufferPointer { rb in
                    let base = src.baseAddress!
                    let raw = UnsafeRawPointer(base)
                    let r = rb.baseAddress!
                    /// Keeps the corners of row `y` (listed in `columns`) that beat their eight neighbours.
                    func suppress(row y: Int, _ columns: [Int]) {
                        guard y >= top, y < bottom else { return }
                        let above = r + (y + 2) % 3 * w, here = r + y % 3 * w, below = r + (y + 1) % 3 * w
                        for x in columns where x >= border && x < w - border {
                            let s = here[x]
                            if s > above[x - 1] && s > above[x] && s > above[x + 1] && s > here[x - 1] && s > here[x + 1]
                                && s > below[x - 1] && s > below[x] && s > below[x + 1] {
                                corners.append(Corner(x: x, y: y, score: Int(s) - 1))
                            }
                        }
                    }
                    @inline(__always) func score(_ lanes: UInt32, at start: Int, row: UnsafeMutablePointer<UInt8>, y: Int) {
                        var m = lanes
                        while m != 0 {
                            let lane = m.trailingZeroBitCount
                            m &= m - 1
                            let x = start + (lane & 15)
                            let s = cornerScore(base + y * w + x, off, darker: lane >= 16)
                            if s > threshold { row[x] = UInt8(clamping: s); current.append(x) }
                        }
                    }
                    for y in y0..<y1 {
                        // The slot last held row y - 3, whose suppression is done.
                        let row = r + y % 3 * w
                        row.update(repeating: 0, count: w)
                        var x = x0
                        #if arch(x86_64)
                        if path == .avx2 {
                            // Two chunks a step, each half answered and scored as the 16-pixel test's.
                            while x + 32 <= x1 {
                                let lanes = FastCornersAVX2.candidates32(base + y * w + x, offsets: off.baseAddress!, threshold: t)
                                if lanes != 0 {
                                    let first = UInt32(truncatingIfNeeded: lanes), second = UInt32(truncatingIfNeeded: lanes >> 32)
                                    if first != 0 { score(first, at: x, row: row, y: y) }
                                    if second != 0 { score(second, at: x + 16, row: row, y: y) }
                                }
                                x += 32
                            }
                        }
                        #endif
                        while x + 16 <= x1 {
                            let lanes = candidates16(raw + y * w + x, off, t)
                            if lanes != 0 { score(lanes, at: x, row: row, y: y) }
                            x += 16
                        }
                        if x < x1 {
                            // The last, overlapping chunk; lanes already scanned are masked off.
                            let start = x1 - 16
                            let skip = (UInt32(1) << UInt32(x - start)) - 1
                            score(candidates16(raw + y * w + start, off, t) & ~(skip | skip << 16), at: start, row: row, y: y)
                        }
                        if y > y0 { suppress(row: y - 1, previous) }
                        swap(&previous, &current)
                        current.removeAll(keepingCapacity: true)
                    }
                    // The row below the last scanned one has no scores.
                    (r + y1 % 3 * w).update(repeating: 0, count: w)
                    suppress(row: y1 - 1, previous)
                }
            }
        }
        return corners
    }

    // SIMDMask lanes are all-ones or zero bytes; reading them as integers avoids the stdlib's unspecialised mask helpers.
    @inline(__always) private static func bytes(_ m: SIMDMask<SIMD16<Int8>>) -> SIMD16<UInt8> { unsafeBitCast(m, to: SIMD16<UInt8>.self) }

    @inline(__always) private static func isZero(_ v: SIMD16<UInt8>) -> Bool {
        let w = unsafeBitCast(v, to: (UInt64, UInt64).self)
        return w.0 | w.1 == 0
    }

    @inline(__always) private static func laneBits(_ v: SIMD16<UInt8>) -> UInt32 {
        let w = unsafeBitCast(v, to: (UInt64, UInt64).self)
        var bits: UInt32 = 0
        var lo64 = w.0 & 0x8080_8080_8080_8080, hi64 = w.1 & 0x8080_8080_8080_8080
        while lo64 != 0 { bits |= 1 << UInt32(lo64.trailingZeroBitCount >> 3); lo64 &= lo64 - 1 }
        while hi64 != 0 { bits |= 1 << UInt32(8 + hi64.trailingZeroBitCount >> 3); hi64 &= hi64 - 1 }
        return bits
    }

    /// Bits 0-15: the 16 pixels from `p` with 9 contiguous circle pixels all brighter than centre + t; bits 16-31: all darker than centre - t.
    private static func candidates16(_ p: UnsafeRawPointer, _ off: UnsafeBufferPointer<Int>, _ t: UInt8) -> UInt32 {
        let c = p.loadUnaligned(as: SIMD16<UInt8>.self)
        let tv = SIMD16<UInt8>(repeating: t)
        // Saturated centre ± t: lanes that would overflow get 255 (nothing brighter) or 0 (nothing darker).
        let hiU = (c &+ tv) | bytes(c .> SIMD16<UInt8>(repeating: 255 &- t))
        let loU = (c &- tv) & ~bytes(c .< tv)
        // Flipping the top bit turns unsigned order into signed order, which SSE2 compares in one instruction.
        let flip = SIMD16<Int8>(repeating: -128)
        let hi = unsafeBitCast(hiU, to: SIMD16<Int8>.self) ^ flip, lo = unsafeBitCast(loU, to: SIMD16<Int8>.self) ^ flip
        @inline(__always) func px(_ k: Int) -> SIMD16<Int8> { p.loadUnaligned(fromByteOffset: off[k], as: SIMD16<Int8>.self) ^ flip }
        let p0 = px(0), p4 = px(4), p8 = px(8), p12 = px(12)
        let b0 = bytes(p0 .> hi), b4 = bytes(p4 .> hi), b8 = bytes(p8 .> hi), b12 = bytes(p12 .> hi)
        let d0 = bytes(p0 .< lo), d4 = bytes(p4 .< lo), d8 = bytes(p8 .< lo), d12 = bytes(p12 .< lo)
        // Any 9-pixel arc holds two neighbouring quarter points.
        let quickB = (b0 & b4) | (b4 & b8) | (b8 & b12) | (b12 & b0)
        let quickD = (d0 & d4) | (d4 & d8) | (d8 & d12) | (d12 & d0)
        let anyB = !isZero(quickB), anyD = !isZero(quickD)
        if !anyB && !anyD { return 0 }
        var hitB = SIMD16<UInt8>(repeating: 0), hitD = hitB
        let one = SIMD16<UInt8>(repeating: 1), eight = SIMD16<Int8>(repeating: 8)
        // Run lengths of consecutive brighter (darker) circle pixels; a run cannot pass 8 before the ninth step.
        if anyB {
            var run = SIMD16<UInt8>(repeating: 0)
            for k in 0..<8 { run = (run &+ one) & bytes(px(k) .> hi) }
            for k in 8..<25 { run = (run &+ one) & bytes(px(k) .> hi); hitB |= bytes(unsafeBitCast(run, to: SIMD16<Int8>.self) .> eight) }
        }
        if anyD {
            var run = SIMD16<UInt8>(repeating: 0)
            for k in 0..<8 { run = (run &+ one) & bytes(px(k) .< lo) }
            for k in 8..<25 { run = (run &+ one) & bytes(px(k) .< lo); hitD |= bytes(unsafeBitCast(run, to: SIMD16<Int8>.self) .> eight) }
        }
        return laneBits(hitB) | laneBits(hitD) << 16
    }

    /// OpenCV's FAST score plus one for a corner whose 9-pixel arc is darker (`darker`) or brighter than the centre: the largest, over the 16 arcs, of the smallest difference to the centre along the arc. (Only one sign can hold an arc of 9 out of 16.)
    static func cornerScore(_ p: UnsafePointer<UInt8>, _ off: UnsafeBufferPointer<Int>, darker: Bool) -> Int {
        var ring = SIMD16<UInt8>()
        for k in 0..<16 { ring[k] = p[off[k]] }
        let centre = SIMD16<UInt8>(repeating: p[0])
        // Differences saturate at 0: that leaves every positive arc minimum, and the score starts at 0.
        let d = darker ? pointwiseMax(centre, ring) &- ring : pointwiseMax(centre, ring) &- centre
        // Minima of windows of 2, 4, 8, then 9 neighbours around the circle, each lane one arc.
        let m2 = pointwiseMin(d, rotated(d, 1))
        let m4 = pointwiseMin(m2, rotated(m2, 2))
        let m8 = pointwiseMin(m4, rotated(m4, 4))
        return Int(pointwiseMin(m8, rotated(d, 8)).max())
    }

    /// `v`'s lanes turned by `k` around the circle (lane i holds lane i + k): one byte shuffle.
    @inline(__always) private static func rotated(_ v: SIMD16<UInt8>, _ k: Int) -> SIMD16<UInt8> {
        SIMD16(v[k & 15], v[(k + 1) & 15], v[(k + 2) & 15], v[(k + 3) & 15], v[(k + 4) & 15], v[(k + 5) & 15], v[(k + 6) & 15], v[(k + 7) & 15],
               v[(k + 8) & 15], v[(k + 9) & 15], v[(k + 10) & 15], v[(k + 11) & 15], v[(k + 12) & 15], v[(k + 13) & 15], v[(k + 14) & 15], v[(k + 15) & 15])
    }
}
