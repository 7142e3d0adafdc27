#if arch(x86_64)
import BlurMetricsAVX2
#endif

/// Light denoising before the Laplacian: the 3x3 binomial filter `[1 2 1]^T [1 2 1] / 16` (as
/// `cv2.GaussianBlur(gray, (3, 3), 0)`), with reflect-101 borders, rounded to 8 bits per pass.
///
/// Sensor noise is independent from pixel to pixel, so this removes most of its Laplacian energy,
/// while edges that survive the analysis scale keep most of theirs.
public enum BinomialSmoothing {
    /// The smoothed plane.
    public static func apply(to plane: LumaPlane) -> LumaPlane {
        apply(to: plane, path: .best)
    }

    /// The smoothed plane, by the row loops of `path`.
    static func apply(to plane: LumaPlane, path: KernelPath) -> LumaPlane {
        let width = plane.width, height = plane.height
        var horizontal = [UInt8](repeating: 0, count: width * height)
        var output = [UInt8](repeating: 0, count: width * height)
        plane.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    smoothRow(source.baseAddress! + y * width, into: target.baseAddress! + y * width, width: width, path: path)
                }
            }
        }
        horizontal.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    smoothColumns(
                        above: source.baseAddress! + LaplacianVariance.reflect101(y - 1, count: height) * width,
                        center: source.baseAddress! + y * width,
                        below: source.baseAddress! + LaplacianVariance.reflect101(y + 1, count: height) * width,
                        into: target.baseAddress! + y * width, width: width, path: path
                    )
                }
            }
        }
        return LumaPlane(width: width, height: height, pixels: output)
    }

    /// The horizontal pass over one row of `width` samples, by the loop of `path` (the same bytes).
    @inline(__always)
    static func smoothRow(_ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, width: Int, path: KernelPath) {
        func edge(_ x: Int) {
            let left = UInt16(row[LaplacianVariance.reflect101(x - 1, count: width)])
            let right = UInt16(row[LaplacianVariance.reflect101(x + 1, count: width)])
            out[x] = UInt8(truncatingIfNeeded: (left &+ 2 &* UInt16(row[x]) &+ right &+ 2) >> 2)
        }
        edge(0)
        edge(width - 1)
        #if arch(x86_64)
        if path == .avx2 {
            BinomialSmoothingAVX2.smoothRowInterior(row, into: out, width: width)
            return
        }
        #endif
        // The interior without border arithmetic, so the compiler can vectorise it.
        var x = 1
        while x < width - 1 {
            out[x] = UInt8(truncatingIfNeeded: (UInt16(row[x - 1]) &+ 2 &* UInt16(row[x]) &+ UInt16(row[x + 1]) &+ 2) >> 2)
            x += 1
        }
    }

    /// The vertical pass: one output row from three horizontally smoothed rows, by the loop of
    /// `path` (the same bytes).
    @inline(__always)
    static func smoothColumns(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>, width: Int, path: KernelPath
    ) {
        #if arch(x86_64)
        if path == .avx2 {
            BinomialSmoothingAVX2.smoothColumns(above: above, center: center, below: below, into: out, width: width)
            return
        }
        #endif
        for x in 0..<width {
            out[x] = UInt8(truncatingIfNeeded: (UInt16(above[x]) &+ 2 &* UInt16(center[x]) &+ UInt16(below[x]) &+ 2) >> 2)
        }
    }
}
