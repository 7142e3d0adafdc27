#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The detail score's row loop at AVX2 width, built for Haswell: BlurModel's `DetailKernel` with
/// sixteen columns per step in 16-bit lanes (`vpmovzxbw`, `vpabsw`). The same integers. Call only
/// where the CPU has AVX2.
package enum DetailKernelAVX2 {
    /// Adds `|4c - up - down - left - right|` of columns `start ..< end` of the row `center` to
    /// `sums` (indexed like the row); columns `start - 1 ... end` are read.
    @inline(never)
    package static func accumulateRow(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        into sums: UnsafeMutablePointer<UInt16>, from start: Int, to end: Int
    ) {
        var x = start
        while x &+ 16 <= end {
            let middle = widened(center, x)
            let neighbours = _mm256_add_epi16(
                _mm256_add_epi16(widened(above, x), widened(below, x)), _mm256_add_epi16(widened(center, x &- 1), widened(center, x &+ 1))
            )
            let magnitude = _mm256_abs_epi16(_mm256_sub_epi16(_mm256_slli_epi16(middle, 2), neighbours))
            let slot = UnsafeMutableRawPointer(sums + x).assumingMemoryBound(to: __m256i_u.self)
            _mm256_storeu_si256(slot, _mm256_add_epi16(_mm256_loadu_si256(slot), magnitude))
            x &+= 16
        }
        while x < end {
            let response = 4 &* Int(center[x]) &- Int(above[x]) &- Int(below[x]) &- Int(center[x &- 1]) &- Int(center[x &+ 1])
            sums[x] &+= UInt16(truncatingIfNeeded: response < 0 ? -response : response)
            x &+= 1
        }
    }

    /// Sixteen samples from `row + offset`, each in a 16-bit lane.
    @inline(__always)
    private static func widened(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_cvtepu8_epi16(_mm_loadu_si128(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m128i_u.self)))
    }
}
#endif
