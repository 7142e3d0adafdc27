#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The horizontal area resampling of one row in groups of four targets, each target's taps
/// gathered with a byte shuffle chosen at run time (SSSE3 `pshufb`, SSE4.1 `packusdw`, at the
/// kernels' `nehalem` baseline; the same arithmetic one target at a time elsewhere). Swift's SIMD types offer no
/// run-time shuffle, so the x86-64 path calls the compiler's own intrinsics: no C of ours.
enum AreaResamplingGroups {
    /// Writes target `4g + j` of each group `g < groups`: (the sum over its taps `k < 4` of
    /// `source[bases[g] + offsets[32g + 8j + 2k]] * weights[16g + 4j + k]` + 32) >> 6. Offsets come
    /// in byte pairs, the tap's offset then 0x80 (a shuffle mask that widens each sample to 16
    /// bits); a tap whose offset is 0x80 reads nothing (weight 0). The caller guarantees
    /// `bases[g] + 16` is within the row, every other offset is under 16, every weight under
    /// 32,768 and each target's weights summing to at most 16,384: the result then fits 16 bits
    /// and is exactly the scalar sum's (the vector path saturates where the scalar one would wrap).
    @inline(__always)
    static func resample(_ source: UnsafePointer<UInt8>, bases: UnsafePointer<Int32>, offsets: UnsafePointer<UInt8>,
                         weights: UnsafePointer<Int16>, groups: Int, into output: UnsafeMutablePointer<UInt16>) {
        #if arch(x86_64)
        let rounding = _mm_set1_epi32(32)
        for group in 0..<groups {
            let row = load(source + Int(bases[group]))
            let first = _mm_shuffle_epi8(row, load(offsets + 32 * group))
            let second = _mm_shuffle_epi8(row, load(offsets + 32 * group + 16))
            // pmaddwd sums pairs of taps in 32 bits; phaddd adds each target's two pairs.
            let firstSums = _mm_madd_epi16(first, load(weights + 16 * group))
            let secondSums = _mm_madd_epi16(second, load(weights + 16 * group + 8))
            let sums = _mm_srli_epi32(_mm_add_epi32(_mm_hadd_epi32(firstSums, secondSums), rounding), 6)
            let packed = unsafeBitCast(_mm_packus_epi32(sums, sums), to: SIMD2<UInt64>.self)
            UnsafeMutableRawPointer(output + 4 * group).storeBytes(of: packed[0], as: UInt64.self)
        }
        #else
        for group in 0..<groups {
            let row = source + Int(bases[group])
            for target in 0..<4 {
                var sum: Int32 = 0
                for tap in 0..<4 {
                    let offset = offsets[32 * group + 8 * target + 2 * tap]
                    if offset < 16 { sum += Int32(row[Int(offset)]) * Int32(weights[16 * group + 4 * target + tap]) }
                }
                output[4 * group + target] = UInt16(truncatingIfNeeded: (sum + 32) >> 6)
            }
        }
        #endif
    }

    #if arch(x86_64)
    /// Sixteen bytes from `pointer`, unaligned.
    @inline(__always)
    private static func load<T>(_ pointer: UnsafePointer<T>) -> __m128i {
        unsafeBitCast(UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<UInt8>.self), to: __m128i.self)
    }
    #endif
}
