#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The local features' resampling loops at AVX2 width: the bilinear pyramid step's two blends and
/// the descriptor blur's seven-tap filter, the same exact integers as the baseline's
/// (`PlaneResampling`), sample for sample.
package enum PlaneResamplingAVX2 {
    /// Writes `v[j] = upper[j] * wa + lower[j] * wb` for `j` in `0 ..< count` (the weights at most
    /// 128 together, so every sum fits sixteen bits). Call only where the CPU has AVX2.
    @inline(never)
    package static func verticalBlend(_ upper: UnsafePointer<UInt8>, _ lower: UnsafePointer<UInt8>, _ wa: UInt16, _ wb: UInt16,
                                      into v: UnsafeMutablePointer<UInt16>, count: Int) {
        let last = count &- 16
        guard last >= 0 else {
            for j in 0..<count { v[j] = UInt16(upper[j]) &* wa &+ UInt16(lower[j]) &* wb }
            return
        }
        let a = _mm256_set1_epi16(Int16(bitPattern: wa)), b = _mm256_set1_epi16(Int16(bitPattern: wb))
        var j = 0
        // The last step may overlap the one before it, which writes the same values.
        while true {
            let sum = _mm256_add_epi16(_mm256_mullo_epi16(widened(upper, j), a), _mm256_mullo_epi16(widened(lower, j), b))
            _mm256_storeu_si256(UnsafeMutableRawPointer(v + j).assumingMemoryBound(to: __m256i_u.self), sum)
            if j == last { break }
            j = j &+ 16 < last ? j &+ 16 : last
        }
    }

    /// Writes eight outputs a group for `groups` groups: output `8g + i` is
    /// `(v[c] * (128 - b) + v[c + 1] * b + 8192) >> 14` of its left column `c` and right weight `b`.
    /// Each half group's four pairs lie in the sixteen bytes from `v + starts[2g + h]` (h = 0, 1),
    /// picked by the 16-byte shuffle `masks[32g + 16h ..< 32g + 16h + 16]` as four (left, right)
    /// pairs; `weights[16g ..< 16g + 16]` holds each output's `(128 - b, b)`. Every sixteen bytes
    /// read must lie in `v`'s buffer (v holds at most 32,640, so the products fit). Call only where
    /// the CPU has AVX2.
    @inline(never)
    package static func horizontalBlend(_ v: UnsafePointer<UInt16>, starts: UnsafePointer<Int32>, masks: UnsafePointer<UInt8>,
                                        weights: UnsafePointer<Int16>, groups: Int, into o: UnsafeMutablePointer<UInt8>) {
        let rounding = _mm256_set1_epi32(8192)
        // Each lane's four results (bytes 0, 4, 8, 12 once packed) gathered into the low eight bytes.
        let gather = _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0)
        for g in 0..<groups {
            let left = UnsafeRawPointer(v + Int(starts[2 &* g])).assumingMemoryBound(to: __m128i_u.self)
            let right = UnsafeRawPointer(v + Int(starts[2 &* g &+ 1])).assumingMemoryBound(to: __m128i_u.self)
            let window = _mm256_loadu2_m128i(right, left)
            let pairs = _mm256_shuffle_epi8(window, loaded(UnsafeRawPointer(masks + 32 &* g)))
            let sums = _mm256_madd_epi16(pairs, loaded(UnsafeRawPointer(weights + 16 &* g)))
            let r = _mm256_srli_epi32(_mm256_add_epi32(sums, rounding), 14)
            let words = _mm256_packus_epi32(r, r)
            let bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words, words), gather)
            _mm_storel_epi64(UnsafeMutableRawPointer(o + 8 &* g).assumingMemoryBound(to: __m128i_u.self), _mm256_castsi256_si128(bytes))
        }
    }

    /// The descriptor blur's filter, `o[x]` for `x` in `x0 ..< x1`, from seven rows' samples at
    /// `x` weighted 18, 33, 49, 56, 49, 33, 18 (of 256, rounded): the baseline's wrapping 16-bit
    /// sums, which never wrap. `o` must not overlap the rows. Call only where the CPU has AVX2.
    @inline(never)
    package static func filterColumns(_ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>, _ r2: UnsafePointer<UInt8>, _ r3: UnsafePointer<UInt8>,
                                      _ r4: UnsafePointer<UInt8>, _ r5: UnsafePointer<UInt8>, _ r6: UnsafePointer<UInt8>,
                                      into o: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int) {
        let last = x1 &- 16
        guard last >= x0 else {
            var x = x0
            while x < x1 {
                var acc = (UInt16(r0[x]) &+ UInt16(r6[x])) &* 18
                acc = acc &+ (UInt16(r1[x]) &+ UInt16(r5[x])) &* 33
                acc = acc &+ (UInt16(r2[x]) &+ UInt16(r4[x])) &* 49
                acc = acc &+ UInt16(r3[x]) &* 56
                o[x] = UInt8(truncatingIfNeeded: (acc &+ 128) &>> 8)
                x &+= 1
            }
            return
        }
        let w18 = _mm256_set1_epi16(18), w33 = _mm256_set1_epi16(33), w49 = _mm256_set1_epi16(49), w56 = _mm256_set1_epi16(56)
        let rounding = _mm256_set1_epi16(128)
        // The packed bytes' two 8-byte halves from the lanes' low quarters into the low 16 bytes.
        let order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
        var x = x0
        // The last step may overlap the one before it, which writes the same values.
        while true {
            var acc = _mm256_mullo_epi16(_mm256_add_epi16(widened(r0, x), widened(r6, x)), w18)
            acc = _mm256_add_epi16(acc, _mm256_mullo_epi16(_mm256_add_epi16(widened(r1, x), widened(r5, x)), w33))
            acc = _mm256_add_epi16(acc, _mm256_mullo_epi16(_mm256_add_epi16(widened(r2, x), widened(r4, x)), w49))
            acc = _mm256_add_epi16(acc, _mm256_mullo_epi16(widened(r3, x), w56))
            let means = _mm256_srli_epi16(_mm256_add_epi16(acc, rounding), 8)
            let bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(means, means), order)
            _mm_storeu_si128(UnsafeMutableRawPointer(o + x).assumingMemoryBound(to: __m128i_u.self), _mm256_castsi256_si128(bytes))
            if x == last { break }
            x = x &+ 16 < last ? x &+ 16 : last
        }
    }

    /// Sixteen bytes from `offset` bytes into `row`, each widened to sixteen bits.
    @inline(__always)
    static func widened(_ row: UnsafePointer<UInt8>, _ offset: Int) -> __m256i {
        _mm256_cvtepu8_epi16(_mm_loadu_si128(UnsafeRawPointer(row + offset).assumingMemoryBound(to: __m128i_u.self)))
    }

    /// Thirty-two bytes at `p`, unaligned.
    @inline(__always)
    static func loaded(_ p: UnsafeRawPointer) -> __m256i {
        _mm256_loadu_si256(p.assumingMemoryBound(to: __m256i_u.self))
    }
}
#endif
