#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The fingerprint's halving and quartering pass at AVX2 width: thirty-two source columns a step,
/// the same rounded 2x2 and 4x4 means as the baseline's (`PlaneResampling.halvedAndQuartered`).
package enum PlaneHalvingAVX2 {
    /// For source rows `top ..< top + 4` (rows of `width` samples from `source`) and each of the
    /// first `chunks` runs of thirty-two columns: the sixteen rounded 2x2 means of rows `top` and
    /// `top + 1` into `upper`, of rows `top + 2` and `top + 3` into `lower`, and the eight rounded
    /// 4x4 means into `quarter`. Call only where the CPU has AVX2.
    @inline(never)
    package static func halveAndQuarter(_ source: UnsafePointer<UInt8>, width: Int, top: Int, chunks: Int,
                                        upper: UnsafeMutablePointer<UInt8>, lower: UnsafeMutablePointer<UInt8>,
                                        quarter: UnsafeMutablePointer<UInt8>) {
        let ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1)
        let two = _mm256_set1_epi16(2), eight = _mm256_set1_epi32(8)
        // Packing works within each 128-bit lane; these put the lanes' pieces back in column order.
        let halves = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7), quarters = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0)
        let r0 = source + top &* width, r1 = r0 + width, r2 = r1 + width, r3 = r2 + width
        for c in 0..<chunks {
            let x = 32 &* c
            // Horizontal pairs summed by a multiply-add with ones, then the two rows added: 2x2 sums in column order.
            let s0 = _mm256_add_epi16(_mm256_maddubs_epi16(load(r0, x), ones8), _mm256_maddubs_epi16(load(r1, x), ones8))
            let s1 = _mm256_add_epi16(_mm256_maddubs_epi16(load(r2, x), ones8), _mm256_maddubs_epi16(load(r3, x), ones8))
            let h0 = _mm256_srli_epi16(_mm256_add_epi16(s0, two), 2), h1 = _mm256_srli_epi16(_mm256_add_epi16(s1, two), 2)
            let both = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(h0, h1), halves)
            _mm256_storeu2_m128i(UnsafeMutableRawPointer(lower + 16 &* c).assumingMemoryBound(to: __m128i_u.self),
                                 UnsafeMutableRawPointer(upper + 16 &* c).assumingMemoryBound(to: __m128i_u.self), both)
            // Neighbouring 2x2 sums of both row pairs add up to the 4x4 sums, one per 32-bit lane.
            let sums = _mm256_madd_epi16(_mm256_add_epi16(s0, s1), ones16)
            let q = _mm256_srli_epi32(_mm256_add_epi32(sums, eight), 4)
            let words = _mm256_packus_epi32(q, q)
            let bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words, words), quarters)
            _mm_storel_epi64(UnsafeMutableRawPointer(quarter + 8 &* c).assumingMemoryBound(to: __m128i_u.self), _mm256_castsi256_si128(bytes))
        }
    }

    /// Thirty-two bytes from `offset` bytes into `row`, unaligned.
    @inline(__always)
    static func load(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_loadu_si256(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m256i_u.self))
    }
}
#endif
