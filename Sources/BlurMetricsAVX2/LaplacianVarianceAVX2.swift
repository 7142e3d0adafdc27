#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The Laplacian's sums over a row's interior at AVX2 width: sixteen responses per step, each in a
/// 16-bit lane, summed and squared in pairs into 32-bit lanes (`vpmaddwd`). The same integers as
/// BlurMetrics' `LaplacianVariance` on the baseline path.
package enum LaplacianVarianceAVX2 {
    /// Steps between moves of the 32-bit lanes into the 64-bit sums: a step adds two squares of
    /// at most 1020 to a lane, and 2 * 1020^2 * 1024 < 2^31.
    static let flushInterval = 1024

    /// The sum of the 4-neighbour Laplacian responses `above[x] + below[x] + center[x - 1] +
    /// center[x + 1] - 4 center[x]`, and of their squares, for `16 * steps` columns from `start`;
    /// every column read (`start - 1` to `start + 16 * steps`) must be within the rows.
    /// Call only where the CPU has AVX2.
    @inline(never)
    package static func rowSums(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>, from start: Int, steps: Int
    ) -> (sum: Int64, sumOfSquares: Int64) {
        var sum: Int64 = 0, sumOfSquares: Int64 = 0
        let ones = _mm256_set1_epi16(1)
        var x = start, done = 0
        while done < steps {
            let chunk = steps &- done < flushInterval ? steps &- done : flushInterval
            var laneSum = _mm256_setzero_si256(), laneSquares = _mm256_setzero_si256()
            for _ in 0..<chunk {
                let vertical = _mm256_add_epi16(OrientedDetailAVX2.widened(above, x), OrientedDetailAVX2.widened(below, x))
                let horizontal = _mm256_add_epi16(OrientedDetailAVX2.widened(center, x &- 1), OrientedDetailAVX2.widened(center, x &+ 1))
                // |response| <= 1020 fits 16 bits.
                let response = _mm256_sub_epi16(_mm256_add_epi16(vertical, horizontal), _mm256_slli_epi16(OrientedDetailAVX2.widened(center, x), 2))
                laneSum = _mm256_add_epi32(laneSum, _mm256_madd_epi16(response, ones))
                laneSquares = _mm256_add_epi32(laneSquares, _mm256_madd_epi16(response, response))
                x &+= 16
            }
            sum &+= widenedSum(laneSum)
            sumOfSquares &+= widenedSum(laneSquares)
            done &+= chunk
        }
        return (sum, sumOfSquares)
    }

    /// The sum of the eight signed 32-bit lanes of `vector`, in 64 bits.
    @inline(__always)
    static func widenedSum(_ vector: __m256i) -> Int64 {
        let lanes = OrientedDetailAVX2.int32Lanes(vector)
        var total: Int64 = 0
        for lane in 0..<8 { total &+= Int64(lanes[lane]) }
        return total
    }
}
#endif
