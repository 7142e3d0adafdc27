/// OpenCV's 8-bit RGB-to-grey conversion (`COLOR_BGR2GRAY`), reproduced exactly.
public enum GrayConversion {
    /// The grey value `(9798 R + 19235 G + 3735 B + 16384) >> 15`.
    @inlinable @inline(__always)
    public static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let weighted = 9798 &* UInt32(red) &+ 19235 &* UInt32(green) &+ 3735 &* UInt32(blue) &+ 16384
        return UInt8(truncatingIfNeeded: weighted >> 15)
    }

    /// Converts one row of `count` interleaved pixels with `bands` samples each to luma.
    ///
    /// One or two bands are grey (alpha ignored); three or four are RGB (alpha ignored, as
    /// OpenCV's `IMREAD_COLOR` does).
    public static func convertRow(
        _ source: UnsafePointer<UInt8>,
        bands: Int,
        count: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        switch bands {
        case 1:
            destination.update(from: source, count: count)
        case 2:
            for x in 0..<count { destination[x] = source[2 &* x] }
        case 3:
            convertRGB(source, stride: 3, count: count, into: destination)
        default:
            convertRGB(source, stride: bands, count: count, into: destination)
        }
    }

    @inline(__always)
    private static func convertRGB(
        _ source: UnsafePointer<UInt8>,
        stride: Int,
        count: Int,
        into destination: UnsafeMutablePointer<UInt8>
    ) {
        var pixel = source
        for x in 0..<count {
            destination[x] = luma(red: pixel[0], green: pixel[1], blue: pixel[2])
            pixel += stride
        }
    }
}
