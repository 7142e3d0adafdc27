#if arch(x86_64)
import _Builtin_intrinsics.intel

/// Sums over the 2x2 blocks of two rows at AVX2 width, sixteen blocks per step: each row's
/// horizontal pairs are added or subtracted in 16-bit lanes by one multiply-add of bytes
/// (`vpmaddubsw` with weights 1, 1 or 1, -1). The halving's block means and the noise estimate's
/// diagonal detail, the same integers as BlurMetrics' baseline loops.
package enum BlockSumsAVX2 {
    /// Writes `(top[2i] + top[2i + 1] + bottom[2i] + bottom[2i + 1] + 2) >> 2` to `out[i]` for
    /// `i < blocks`, reading `2 * blocks` bytes of each row. Call only where the CPU has AVX2.
    @inline(never)
    package static func means(top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, blocks: Int, into out: UnsafeMutablePointer<UInt8>) {
        // A step writes 32 means from 64 bytes of each row; the last step may overlap the one
        // before it, which writes the same values.
        let last = blocks &- 32
        guard last >= 0 else {
            for i in 0..<blocks {
                let sum = UInt16(top[2 &* i]) &+ UInt16(top[2 &* i &+ 1]) &+ UInt16(bottom[2 &* i]) &+ UInt16(bottom[2 &* i &+ 1])
                out[i] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
            }
            return
        }
        let ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2)
        // packus interleaves the two halves' 64-bit quarters: this puts them back in order.
        let order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
        var i = 0
        while true {
            let first = _mm256_add_epi16(_mm256_maddubs_epi16(load(top, 2 &* i), ones), _mm256_maddubs_epi16(load(bottom, 2 &* i), ones))
            let second = _mm256_add_epi16(_mm256_maddubs_epi16(load(top, 2 &* i &+ 32), ones),
                                          _mm256_maddubs_epi16(load(bottom, 2 &* i &+ 32), ones))
            let packed = _mm256_packus_epi16(_mm256_srli_epi16(_mm256_add_epi16(first, two), 2), _mm256_srli_epi16(_mm256_add_epi16(second, two), 2))
            _mm256_storeu_si256(UnsafeMutableRawPointer(out + i).assumingMemoryBound(to: __m256i_u.self), _mm256_permutevar8x32_epi32(packed, order))
            if i == last { break }
            i = i &+ 32 < last ? i &+ 32 : last
        }
    }

    /// Writes `|top[2i] - top[2i + 1] - bottom[2i] + bottom[2i + 1]|` (twice the Haar wavelet's
    /// diagonal coefficient, 0 to 510) to `out[i]` for `i < blocks`, reading `2 * blocks` bytes of
    /// each row. Call only where the CPU has AVX2.
    @inline(never)
    package static func diagonalDetail(top: UnsafePointer<UInt8>, bottom: UnsafePointer<UInt8>, blocks: Int, into out: UnsafeMutablePointer<UInt16>) {
        let last = blocks &- 16
        guard last >= 0 else {
            for i in 0..<blocks {
                let value = Int(top[2 &* i]) &- Int(top[2 &* i &+ 1]) &- Int(bottom[2 &* i]) &+ Int(bottom[2 &* i &+ 1])
                out[i] = UInt16(truncatingIfNeeded: value < 0 ? 0 &- value : value)
            }
            return
        }
        // Weights 1, -1 on each pair: the pair's difference, -255 to 255, in a 16-bit lane.
        let difference = _mm256_set1_epi16(Int16(bitPattern: 0xFF01))
        var i = 0
        while true {
            let value = _mm256_sub_epi16(_mm256_maddubs_epi16(load(top, 2 &* i), difference), _mm256_maddubs_epi16(load(bottom, 2 &* i), difference))
            _mm256_storeu_si256(UnsafeMutableRawPointer(out + i).assumingMemoryBound(to: __m256i_u.self), _mm256_abs_epi16(value))
            if i == last { break }
            i = i &+ 16 < last ? i &+ 16 : last
        }
    }

    /// Thirty-two bytes from `offset` bytes into `row`, unaligned.
    @inline(__always)
    static func load(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_loadu_si256(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m256i_u.self))
    }
}
#endif
