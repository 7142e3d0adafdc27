#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The binomial smoothing's two passes at AVX2 width, 32 bytes per step: `(a + 2c + b + 2) >> 2`
/// of the neighbours `a`, `b` and the centre `c`, taken exactly as `avg(avg(a, b) - (a ^ b) & 1, c)`
/// with the bytes' rounding averages (`vpavgb`): `avg(a, b) - (a ^ b) & 1` is `(a + b) >> 1`, and
/// `(h + c + 1) >> 1` of that `h` equals the sum's rounding for every `a`, `b`, `c`.
package enum BinomialSmoothingAVX2 {
    /// Writes `out[x]` for `1 ..< width - 1` from `row[x - 1]`, `row[x]`, `row[x + 1]` (the
    /// horizontal pass without its two edge samples). Call only where the CPU has AVX2.
    @inline(never)
    package static func smoothRowInterior(_ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, width: Int) {
        // A step writes 32 outputs from x and reads up to x + 32; the last step may overlap the
        // one before it, which writes the same values.
        let last = width &- 33
        guard last >= 1 else {
            var x = 1
            while x < width &- 1 {
                out[x] = UInt8(truncatingIfNeeded: (UInt16(row[x &- 1]) &+ 2 &* UInt16(row[x]) &+ UInt16(row[x &+ 1]) &+ 2) &>> 2)
                x &+= 1
            }
            return
        }
        var x = 1
        while true {
            store(smoothed(load(row, x &- 1), load(row, x), load(row, x &+ 1)), out, x)
            if x == last { break }
            x = x &+ 32 < last ? x &+ 32 : last
        }
    }

    /// Writes `out[x]` for `0 ..< width` from `above[x]`, `center[x]`, `below[x]` (the vertical
    /// pass). Call only where the CPU has AVX2.
    @inline(never)
    package static func smoothColumns(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>, width: Int
    ) {
        let last = width &- 32
        guard last >= 0 else {
            for x in 0..<width {
                out[x] = UInt8(truncatingIfNeeded: (UInt16(above[x]) &+ 2 &* UInt16(center[x]) &+ UInt16(below[x]) &+ 2) &>> 2)
            }
            return
        }
        var x = 0
        while true {
            store(smoothed(load(above, x), load(center, x), load(below, x)), out, x)
            if x == last { break }
            x = x &+ 32 < last ? x &+ 32 : last
        }
    }

    /// `(a + 2c + b + 2) >> 2` of every byte lane.
    @inline(__always)
    static func smoothed(_ a: __m256i, _ c: __m256i, _ b: __m256i) -> __m256i {
        let half = _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_set1_epi8(1)))
        return _mm256_avg_epu8(half, c)
    }

    /// Thirty-two bytes from `offset` bytes into `row`, unaligned.
    @inline(__always)
    static func load(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_loadu_si256(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m256i_u.self))
    }

    /// Stores thirty-two bytes at `offset` bytes into `row`, unaligned.
    @inline(__always)
    static func store(_ bytes: __m256i, _ row: UnsafeMutablePointer<UInt8>, _ offset: Int) {
        _mm256_storeu_si256(UnsafeMutableRawPointer(row + offset).assumingMemoryBound(to: __m256i_u.self), bytes)
    }
}
#endif
