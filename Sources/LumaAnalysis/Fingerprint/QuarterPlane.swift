import BlurMetrics

/// The analysis plane averaged over 4x4 blocks (the last partial blocks left out): what the
/// fingerprint's border trim and 32x32 average read, at a sixteenth of the samples.
enum QuarterPlane {
    /// `plane` averaged over 4x4 blocks, each mean rounded half up; a plane under 4 px a side is returned as it is.
    static func of(_ plane: LumaPlane) -> LumaPlane {
        of(plane, left: 0, top: 0) ?? plane
    }

    /// The part of `plane` from column `left` and row `top` on averaged over 4x4 blocks, as `of(_:)`
    /// averages a plane cropped there (without making the crop); nil when that part is under 4 px a side.
    static func of(_ plane: LumaPlane, left: Int, top: Int) -> LumaPlane? {
        let width = (plane.width - left) / 4, height = (plane.height - top) / 4
        guard width > 0, height > 0 else { return nil }
        let stride = plane.width
        let result = plane.pixels.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
                let source = UnsafeRawPointer(pixels.baseAddress! + top * stride + left), o = out.baseAddress!
                for blockRow in 0..<height {
                    let top = source + blockRow &* 4 &* stride, row = o + blockRow &* width
                    var x = 0
                    // Four blocks at a time: each 32-bit lane holds one block's four samples of a line.
                    while x &+ 4 <= width {
                        var sums = SIMD4<UInt32>()
                        for line in 0..<4 {
                            let v = (top + line &* stride).loadUnaligned(fromByteOffset: 4 &* x, as: SIMD4<UInt32>.self)
                            let pairs = (v & 0x00FF_00FF) &+ ((v &>> 8) & 0x00FF_00FF)
                            sums &+= (pairs & 0xFFFF) &+ (pairs &>> 16)
                        }
                        let means = (sums &+ 8) &>> 4
                        for lane in 0..<4 { row[x &+ lane] = UInt8(truncatingIfNeeded: means[lane]) }
                        x &+= 4
                    }
                    while x < width {
                        var sum: UInt32 = 0
                        for line in 0..<4 {
                            let p = (top + line &* stride).assumingMemoryBound(to: UInt8.self) + 4 &* x
                            sum &+= UInt32(p[0]) &+ UInt32(p[1]) &+ UInt32(p[2]) &+ UInt32(p[3])
                        }
                        row[x] = UInt8(truncatingIfNeeded: (sum &+ 8) &>> 4)
                        x &+= 1
                    }
                }
                initialized = width * height
            }
        }
        return LumaPlane(width: width, height: height, pixels: result)
    }
}
