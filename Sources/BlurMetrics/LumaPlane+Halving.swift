#if arch(x86_64)
import BlurMetricsAVX2
#endif

extension LumaPlane {
    /// The plane at half the size in each direction, each sample the rounded mean of a 2x2 block
    /// (a last odd row or column is left out); nil when a side is shorter than 2.
    public func halved() -> LumaPlane? {
        halved(path: .best)
    }

    /// `halved()` by the row loop of `path` (every path gives the same plane).
    func halved(path: KernelPath) -> LumaPlane? {
        let halfWidth = width / 2, halfHeight = height / 2
        guard halfWidth > 0, halfHeight > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: halfWidth * halfHeight)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                #if arch(x86_64)
                if path == .avx2 {
                    for y in 0..<halfHeight {
                        let top = source.baseAddress! + 2 * y * width
                        BlockSumsAVX2.means(top: top, bottom: top + width, blocks: halfWidth, into: target.baseAddress! + y * halfWidth)
                    }
                    return
                }
                #endif
                for y in 0..<halfHeight {
                    let top = UnsafeRawPointer(source.baseAddress! + 2 * y * width), bottom = top + width
                    let row = target.baseAddress! + y * halfWidth
                    var x = 0
                    // Sixteen outputs from 32 bytes of each row per step.
                    while x + 16 <= halfWidth {
                        let sum = SIMD32<UInt16>(truncatingIfNeeded: top.loadUnaligned(fromByteOffset: 2 * x, as: SIMD32<UInt8>.self))
                            &+ SIMD32<UInt16>(truncatingIfNeeded: bottom.loadUnaligned(fromByteOffset: 2 * x, as: SIMD32<UInt8>.self))
                        let mean = (sum.evenHalf &+ sum.oddHalf &+ 2) &>> 2
                        UnsafeMutableRawPointer(row + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: mean), as: SIMD16<UInt8>.self)
                        x += 16
                    }
                    let topBytes = top.assumingMemoryBound(to: UInt8.self), bottomBytes = bottom.assumingMemoryBound(to: UInt8.self)
                    while x < halfWidth {
                        let sum = UInt16(topBytes[2 * x]) + UInt16(topBytes[2 * x + 1]) + UInt16(bottomBytes[2 * x]) + UInt16(bottomBytes[2 * x + 1])
                        row[x] = UInt8((sum + 2) >> 2)
                        x += 1
                    }
                }
            }
        }
        return LumaPlane(width: halfWidth, height: halfHeight, pixels: out)
    }
}
