extension PreviewPixels {
    /// These pixels as JPEG's own YCbCr (BT.601, full range) in three full-size planes, or as
    /// grey when they have no colour, with any alpha flattened over white as libvips' preview
    /// shows it: what the planar preview writes without libvips. Nil unless the layout is
    /// libvips' RGB.
    func ycbcrFromRGB() -> PreviewPixels? {
        guard case .rgb(let bands) = layout, (1...4).contains(bands) else { return nil }
        let count = width * height
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        let source = UnsafePointer(samples)
        let converted: PreviewPixels
        switch bands {
        case 3, 4:
            let cb = UnsafeMutablePointer<UInt8>.allocate(capacity: count), cr = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            // One loop a band count, each with no branch inside, so that the compiler vectorises it.
            if bands == 3 {
                for index in 0..<count {
                    let pixel = source + 3 &* index
                    Self.store(Int32(pixel[0]), Int32(pixel[1]), Int32(pixel[2]), at: index, luma, cb, cr)
                }
            } else {
                for index in 0..<count {
                    let pixel = source + 4 &* index
                    let alpha = Int32(pixel[3])
                    Self.store(Self.overWhite(Int32(pixel[0]), alpha), Self.overWhite(Int32(pixel[1]), alpha), Self.overWhite(Int32(pixel[2]), alpha),
                               at: index, luma, cb, cr)
                }
            }
            converted = PreviewPixels(layout: .planar(chromaShiftX: 0, chromaShiftY: 0), width: width, height: height, samples: luma, cb: cb, cr: cr)
        case 2:
            for index in 0..<count {
                luma[index] = UInt8(truncatingIfNeeded: Self.overWhite(Int32(source[2 &* index]), Int32(source[2 &* index &+ 1])))
            }
            converted = PreviewPixels(layout: .interleaved(bands: 1), width: width, height: height, samples: luma)
        default:
            luma.update(from: source, count: count)
            converted = PreviewPixels(layout: .interleaved(bands: 1), width: width, height: height, samples: luma)
        }
        converted.crop = crop
        converted.orientation = orientation
        converted.fullSize = fullSize
        return converted
    }

    /// Writes the YCbCr of `r`, `g`, `b` at `index` of the three planes, as libjpeg-turbo converts
    /// RGB (jccolor.c): 16 fractional bits, Cb and Cr rounded just under a half so 255 stays in range.
    @inline(__always)
    private static func store(_ r: Int32, _ g: Int32, _ b: Int32, at index: Int,
                              _ luma: UnsafeMutablePointer<UInt8>, _ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>) {
        luma[index] = UInt8(truncatingIfNeeded: (19595 &* r &+ 38470 &* g &+ 7471 &* b &+ 32768) &>> 16)
        cb[index] = UInt8(truncatingIfNeeded: (-11059 &* r &- 21709 &* g &+ 32768 &* b &+ (128 << 16) &+ 32767) &>> 16)
        cr[index] = UInt8(truncatingIfNeeded: (32768 &* r &- 27439 &* g &- 5329 &* b &+ (128 << 16) &+ 32767) &>> 16)
    }

    /// `value` at opacity `alpha` over white, rounded: (v a + 255 (255 - a)) / 255, divided by
    /// 255 with a multiply and shifts, exact for these sums.
    @inline(__always)
    private static func overWhite(_ value: Int32, _ alpha: Int32) -> Int32 {
        let sum = value &* alpha &+ 255 &* (255 &- alpha) &+ 127
        return (sum &+ 1 &+ (sum &>> 8)) &>> 8
    }
}
