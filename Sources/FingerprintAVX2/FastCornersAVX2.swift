#if arch(x86_64)
import _Builtin_intrinsics.intel

/// FAST-9's candidate test at AVX2 width: thirty-two centres a step, the same test as the
/// baseline's sixteen (`FastCorners`), lane for lane.
package enum FastCornersAVX2 {
    /// For the 32 pixels from `p`, whose 16 circle pixels lie at `offsets[0 ..< 16]` from each
    /// (`offsets[16 ..< 25]` repeating the first nine): bits 0-15 the first sixteen with 9 contiguous
    /// circle pixels all brighter than centre + `threshold` (saturated), bits 16-31 the first sixteen
    /// with 9 all darker than centre - `threshold`, bits 32-47 and 48-63 the same of the second
    /// sixteen, so each half reads as the baseline's 16-pixel answer. Call only where the CPU has
    /// AVX2; every pixel read must lie in the plane.
    @inline(never)
    package static func candidates32(_ p: UnsafePointer<UInt8>, offsets: UnsafePointer<Int>, threshold: UInt8) -> UInt64 {
        let c = load(p, 0)
        let t = _mm256_set1_epi8(Int8(bitPattern: threshold))
        // Saturated centre ± t: no pixel is brighter than 255 or darker than 0.
        // Flipping the top bit turns unsigned order into the signed order the compare takes.
        let flip = _mm256_set1_epi8(-128)
        let hi = _mm256_xor_si256(_mm256_adds_epu8(c, t), flip), lo = _mm256_xor_si256(_mm256_subs_epu8(c, t), flip)
        @inline(__always) func px(_ k: Int) -> __m256i { _mm256_xor_si256(load(p, offsets[k]), flip) }
        let p0 = px(0), p4 = px(4), p8 = px(8), p12 = px(12)
        let b0 = _mm256_cmpgt_epi8(p0, hi), b4 = _mm256_cmpgt_epi8(p4, hi), b8 = _mm256_cmpgt_epi8(p8, hi), b12 = _mm256_cmpgt_epi8(p12, hi)
        let d0 = _mm256_cmpgt_epi8(lo, p0), d4 = _mm256_cmpgt_epi8(lo, p4), d8 = _mm256_cmpgt_epi8(lo, p8), d12 = _mm256_cmpgt_epi8(lo, p12)
        // Any 9-pixel arc holds two neighbouring quarter points.
        let quickB = _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(b0, b4), _mm256_and_si256(b4, b8)),
                                     _mm256_or_si256(_mm256_and_si256(b8, b12), _mm256_and_si256(b12, b0)))
        let quickD = _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(d0, d4), _mm256_and_si256(d4, d8)),
                                     _mm256_or_si256(_mm256_and_si256(d8, d12), _mm256_and_si256(d12, d0)))
        let anyB = _mm256_testz_si256(quickB, quickB) == 0, anyD = _mm256_testz_si256(quickD, quickD) == 0
        if !anyB && !anyD { return 0 }
        let one = _mm256_set1_epi8(1), eight = _mm256_set1_epi8(8)
        var hitB = _mm256_setzero_si256(), hitD = _mm256_setzero_si256()
        // Run lengths of consecutive brighter (darker) circle pixels; a run cannot pass 8 before the ninth step.
        if anyB {
            var run = _mm256_setzero_si256()
            for k in 0..<8 { run = _mm256_and_si256(_mm256_add_epi8(run, one), _mm256_cmpgt_epi8(px(k), hi)) }
            for k in 8..<25 {
                run = _mm256_and_si256(_mm256_add_epi8(run, one), _mm256_cmpgt_epi8(px(k), hi))
                hitB = _mm256_or_si256(hitB, _mm256_cmpgt_epi8(run, eight))
            }
        }
        if anyD {
            var run = _mm256_setzero_si256()
            for k in 0..<8 { run = _mm256_and_si256(_mm256_add_epi8(run, one), _mm256_cmpgt_epi8(lo, px(k))) }
            for k in 8..<25 {
                run = _mm256_and_si256(_mm256_add_epi8(run, one), _mm256_cmpgt_epi8(lo, px(k)))
                hitD = _mm256_or_si256(hitD, _mm256_cmpgt_epi8(run, eight))
            }
        }
        let bright = UInt64(UInt32(bitPattern: _mm256_movemask_epi8(hitB)))
        let dark = UInt64(UInt32(bitPattern: _mm256_movemask_epi8(hitD)))
        return (bright & 0xFFFF) | (dark & 0xFFFF) << 16 | (bright >> 16) << 32 | (dark >> 16) << 48
    }

    /// Thirty-two bytes from `offset` bytes into `p`, unaligned.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_loadu_si256(UnsafeRawPointer(p + offset).assumingMemoryBound(to: __m256i_u.self))
    }
}
#endif
