import BlurMetrics

/// The analysis plane averaged over 4x4 blocks (the last partial blocks left out): what the
/// fingerprint's border trim and 32x32 average read, at a sixteenth of the samples.
enum QuarterPlane {
    /// `plane` averaged over 4x4 blocks; a plane under 4 px a side is returned as it is.
    static func of(_ plane: LumaPlane) -> LumaPlane {
        let width = plane.width / 4, height = plane.height / 4
        guard width > 0, height > 0 else { return plane }
        var result = [UInt8](repeating: 0, count: width * height)
        var sums = [UInt16](repeating: 0, count: width)
        plane.pixels.withUnsafeBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                result.withUnsafeMutableBufferPointer { result in
                    for blockRow in 0..<height {
                        for line in 0..<4 {
                            let start = (blockRow &* 4 &+ line) &* plane.width
                            for x in 0..<width {
                                let at = start &+ x &* 4
                                sums[x] &+= UInt16(pixels[at]) &+ UInt16(pixels[at &+ 1]) &+ UInt16(pixels[at &+ 2]) &+ UInt16(pixels[at &+ 3])
                            }
                        }
                        let row = blockRow &* width
                        for x in 0..<width {
                            result[row &+ x] = UInt8(truncatingIfNeeded: (sums[x] &+ 8) >> 4)
                            sums[x] = 0
                        }
                    }
                }
            }
        }
        return LumaPlane(width: width, height: height, pixels: result)
    }
}
