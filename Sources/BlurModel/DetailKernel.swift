#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The detail score's row loop on the baseline CPU: eight columns per step in 16-bit lanes (SSE4.1
/// `pmovzxbw` and SSSE3 `pabsw` through the compiler's intrinsics, at the kernels' `nehalem`
/// target; one column at a time elsewhere). The same integers as every other path.
enum DetailKernel {
    /// Adds `|4c - up - down - left - right|` of columns `start ..< end` of the row `center` to
    /// `sums` (indexed like the row); columns `start - 1 ... end` are read.
    @inline(never)
    static func accumulateRow(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        into sums: UnsafeMutablePointer<UInt16>, from start: Int, to end: Int
    ) {
        var x = start
        #if arch(x86_64)
        while x &+ 8 <= end {
            let middle = widened(center, x)
            let neighbours = _mm_add_epi16(
                _mm_add_epi16(widened(above, x), widened(below, x)), _mm_add_epi16(widened(center, x &- 1), widened(center, x &+ 1))
            )
            let magnitude = _mm_abs_epi16(_mm_sub_epi16(_mm_slli_epi16(middle, 2), neighbours))
            let slot = UnsafeMutableRawPointer(sums + x).assumingMemoryBound(to: __m128i_u.self)
            _mm_storeu_si128(slot, _mm_add_epi16(_mm_loadu_si128(slot), magnitude))
            x &+= 8
        }
        #endif
        while x < end {
            let response = 4 &* Int(center[x]) &- Int(above[x]) &- Int(below[x]) &- Int(center[x &- 1]) &- Int(center[x &+ 1])
            sums[x] &+= UInt16(truncatingIfNeeded: response < 0 ? -response : response)
            x &+= 1
        }
    }

    #if arch(x86_64)
    /// Eight samples from `row + offset`, each in a 16-bit lane.
    @inline(__always)
    private static func widened(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m128i {
        _mm_cvtepu8_epi16(_mm_loadl_epi64(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m128i_u.self)))
    }
    #endif
}
