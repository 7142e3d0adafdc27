#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The oriented detail's per-row sums at AVX2 width: the squared second and first differences
/// along 0, 45, 90 and 135 degrees of sixteen columns per step, each sample widened to a 16-bit
/// lane (`vpmovzxbw`) and each pair of squares summed into a 32-bit lane (`vpmaddwd`). The same
/// integers as BlurMetrics' `OrientedDetail` sums on the baseline path, in other lanes.
package enum OrientedDetailAVX2 {
    /// Adds one row's squared differences to the accumulators of each of `columns` tiles of
    /// `tileSize` columns from column 0: tile `t`'s eight accumulators of eight 32-bit lanes are
    /// `lanes[8t ..< 8t + 8]` (curvature 0, 45, 90, 135 degrees, then gradient in the same order).
    /// `above`, `center` and `below` are smoothed rows padded by one sample before column 0 and
    /// readable 16 bytes past column `columns * tileSize`; a tile's last partial step is masked.
    /// Each 32-bit lane takes at most two squares of 510 per step of sixteen columns: the caller
    /// moves the lanes to wider sums before they can overflow.
    /// Call only where the CPU has AVX2.
    @inline(never)
    package static func accumulateRow(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        tileSize: Int, columns: Int, into lanes: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        let index = _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        for column in 0..<columns {
            let tile = lanes + 8 &* column
            var c0 = vector(tile[0]), c45 = vector(tile[1]), c90 = vector(tile[2]), c135 = vector(tile[3])
            var g0 = vector(tile[4]), g45 = vector(tile[5]), g90 = vector(tile[6]), g135 = vector(tile[7])
            var x = column &* tileSize
            let end = x &+ tileSize
            while x < end {
                let middle = widened(center, x), left = widened(center, x &- 1), right = widened(center, x &+ 1)
                let top = widened(above, x), topLeft = widened(above, x &- 1), topRight = widened(above, x &+ 1)
                let bottom = widened(below, x), bottomLeft = widened(below, x &- 1), bottomRight = widened(below, x &+ 1)
                let twice = _mm256_add_epi16(middle, middle)
                var d0 = _mm256_sub_epi16(_mm256_add_epi16(left, right), twice)
                var d45 = _mm256_sub_epi16(_mm256_add_epi16(topRight, bottomLeft), twice)
                var d90 = _mm256_sub_epi16(_mm256_add_epi16(top, bottom), twice)
                var d135 = _mm256_sub_epi16(_mm256_add_epi16(topLeft, bottomRight), twice)
                var e0 = _mm256_sub_epi16(right, left)
                var e45 = _mm256_sub_epi16(topRight, bottomLeft)
                var e90 = _mm256_sub_epi16(bottom, top)
                var e135 = _mm256_sub_epi16(topLeft, bottomRight)
                if end &- x < 16 {
                    // Lane j holds column x + j: the lanes past the tile are zeroed.
                    let keep = _mm256_cmpgt_epi16(_mm256_set1_epi16(Int16(truncatingIfNeeded: end &- x)), index)
                    d0 = _mm256_and_si256(d0, keep); d45 = _mm256_and_si256(d45, keep)
                    d90 = _mm256_and_si256(d90, keep); d135 = _mm256_and_si256(d135, keep)
                    e0 = _mm256_and_si256(e0, keep); e45 = _mm256_and_si256(e45, keep)
                    e90 = _mm256_and_si256(e90, keep); e135 = _mm256_and_si256(e135, keep)
                }
                c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(d0, d0)); c45 = _mm256_add_epi32(c45, _mm256_madd_epi16(d45, d45))
                c90 = _mm256_add_epi32(c90, _mm256_madd_epi16(d90, d90)); c135 = _mm256_add_epi32(c135, _mm256_madd_epi16(d135, d135))
                g0 = _mm256_add_epi32(g0, _mm256_madd_epi16(e0, e0)); g45 = _mm256_add_epi32(g45, _mm256_madd_epi16(e45, e45))
                g90 = _mm256_add_epi32(g90, _mm256_madd_epi16(e90, e90)); g135 = _mm256_add_epi32(g135, _mm256_madd_epi16(e135, e135))
                x &+= 16
            }
            tile[0] = int32Lanes(c0); tile[1] = int32Lanes(c45); tile[2] = int32Lanes(c90); tile[3] = int32Lanes(c135)
            tile[4] = int32Lanes(g0); tile[5] = int32Lanes(g45); tile[6] = int32Lanes(g90); tile[7] = int32Lanes(g135)
        }
    }

    /// `lanes` as the intrinsics' vector type.
    @inline(__always)
    static func vector(_ lanes: SIMD8<Int32>) -> __m256i {
        unsafeBitCast(lanes, to: __m256i.self)
    }

    /// `vector` as eight 32-bit lanes.
    @inline(__always)
    static func int32Lanes(_ vector: __m256i) -> SIMD8<Int32> {
        unsafeBitCast(vector, to: SIMD8<Int32>.self)
    }

    /// Sixteen samples from `offset` bytes into `row`, each widened to a 16-bit lane.
    @inline(__always)
    static func widened(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_cvtepu8_epi16(_mm_loadu_si128(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m128i_u.self)))
    }
}
#endif
