#if _endian(big)
#error("SampleLanes reads two samples per 16-bit lane in little-endian order")
#endif

/// Sixteen 8-bit samples widened to 16-bit lanes as two halves, the even-indexed samples and
/// the odd-indexed ones, with two bit operations.
///
/// `SIMD16<Int16>(truncatingIfNeeded:)` on loaded bytes is a call into the standard library's
/// generic conversion on Linux (not inlined), which cost the blur kernels about a third of their
/// time. Sums over every sample do not depend on the order of the lanes, and a neighbour at a
/// fixed offset loads into the same lane as its centre, so the kernels work on the halves.
struct SampleLanes {
    /// Samples 0, 2, 4, ... 14.
    let even: SIMD8<Int16>
    /// Samples 1, 3, 5, ... 15.
    let odd: SIMD8<Int16>

    /// The sixteen samples starting `offset` bytes into `row`.
    @inline(__always)
    init(_ row: UnsafeRawPointer, _ offset: Int) {
        let pairs = row.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt16>.self)
        even = unsafeBitCast(pairs & 0x00FF, to: SIMD8<Int16>.self)
        odd = unsafeBitCast(pairs &>> 8, to: SIMD8<Int16>.self)
    }

    /// The sum of the squares of `even`'s and `odd`'s lanes, four to each 32-bit lane.
    @inline(__always)
    static func squares(_ even: SIMD8<Int16>, _ odd: SIMD8<Int16>) -> SIMD4<Int32> {
        let (a, b) = widened(even), (c, d) = widened(odd)
        return a &* a &+ b &* b &+ c &* c &+ d &* d
    }

    /// `lanes` widened to 32 bits as two halves: the even-indexed lanes and the odd-indexed ones,
    /// sign-extended with two shifts. (`SIMD8<Int32>(truncatingIfNeeded:)` is, as for bytes, a
    /// call into the standard library's generic conversion on Linux.) Sums over every lane do not
    /// depend on how they are paired.
    @inline(__always)
    static func widened(_ lanes: SIMD8<Int16>) -> (even: SIMD4<Int32>, odd: SIMD4<Int32>) {
        let pairs = unsafeBitCast(lanes, to: SIMD4<Int32>.self)
        return ((pairs &<< 16) &>> 16, pairs &>> 16)
    }
}
