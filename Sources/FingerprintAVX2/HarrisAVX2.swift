#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The Harris response's gradient sums a row of the 7x7 block at a time: the same exact integers
/// as the baseline's pixel-by-pixel sums (`OrbExtractor`).
package enum HarrisAVX2 {
    /// The sums of `ix * ix`, `iy * iy` and `ix * iy` over the 7x7 block centred on `centre` (rows
    /// `step` apart) of the 3x3 Sobel gradients `ix`, `iy`; every sample within 5 columns and 4 rows
    /// of the centre must lie in the plane. Call only where the CPU has AVX2.
    @inline(never)
    package static func gradientSums(_ centre: UnsafePointer<UInt8>, step: Int) -> (xx: Int32, yy: Int32, xy: Int32) {
        // Lanes 0-6 are the block's columns -3...3; lane 7 (column 4) is cleared before it is summed.
        let keep = _mm_setr_epi16(-1, -1, -1, -1, -1, -1, -1, 0)
        var xx = _mm_setzero_si128(), yy = xx, xy = xx
        for dy in -3...3 {
            let middle = centre + dy &* step, above = middle - step, below = middle + step
            let uL = widened(above, -4), u0 = widened(above, -3), uR = widened(above, -2)
            let mL = widened(middle, -4), mR = widened(middle, -2)
            let dL = widened(below, -4), d0 = widened(below, -3), dR = widened(below, -2)
            let mx = _mm_sub_epi16(mR, mL)
            let ix = _mm_and_si128(_mm_add_epi16(_mm_add_epi16(mx, mx), _mm_add_epi16(_mm_sub_epi16(uR, uL), _mm_sub_epi16(dR, dL))), keep)
            let vy = _mm_sub_epi16(d0, u0)
            let iy = _mm_and_si128(_mm_add_epi16(_mm_add_epi16(vy, vy), _mm_add_epi16(_mm_sub_epi16(dL, uL), _mm_sub_epi16(dR, uR))), keep)
            xx = _mm_add_epi32(xx, _mm_madd_epi16(ix, ix))
            yy = _mm_add_epi32(yy, _mm_madd_epi16(iy, iy))
            xy = _mm_add_epi32(xy, _mm_madd_epi16(ix, iy))
        }
        return (total(xx), total(yy), total(xy))
    }

    /// Eight bytes from `offset` bytes into `row`, each widened to sixteen bits.
    @inline(__always)
    static func widened(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m128i {
        _mm_cvtepu8_epi16(_mm_loadl_epi64(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m128i_u.self)))
    }

    /// The sum of the four 32-bit lanes.
    @inline(__always)
    static func total(_ v: __m128i) -> Int32 {
        let pairs = _mm_add_epi32(v, _mm_unpackhi_epi64(v, v))
        return _mm_cvtsi128_si32(_mm_add_epi32(pairs, _mm_srli_epi64(pairs, 32)))
    }
}
#endif
