#if arch(x86_64)
import BlurMetricsAVX2
#endif

/// The variance of the 4-neighbour Laplacian `[0,1,0; 1,-4,1; 0,1,0]` of an 8-bit plane, with
/// reflect-101 borders: exactly `cv2.Laplacian(gray, cv2.CV_64F).var()`. The row loop runs at AVX2
/// width where the CPU has it (`KernelPath`), with the same sums.
public enum LaplacianVariance {
    private typealias Lanes = SIMD4<Int32>
    private static let laneCount = 16
    /// Vector steps before the 32-bit lane accumulators are flushed: each step adds four squares
    /// of at most 1020^2 to a lane, and 4 * 1020^2 * 512 < 2^31.
    private static let flushInterval = 512

    /// The Laplacian variance of `plane`.
    public static func variance(of plane: LumaPlane) -> Double {
        statistics(of: plane).variance
    }

    /// The exact sums of the Laplacian over `plane`.
    public static func statistics(of plane: LumaPlane) -> LaplacianStatistics {
        plane.pixels.withUnsafeBufferPointer { pixels in
            statistics(pixels: pixels.baseAddress!, width: plane.width, height: plane.height)
        }
    }

    /// The exact sums of the Laplacian over `width` x `height` packed samples at `pixels`.
    public static func statistics(pixels: UnsafePointer<UInt8>, width: Int, height: Int) -> LaplacianStatistics {
        statistics(pixels: pixels, width: width, height: height, path: .best)
    }

    /// The exact sums of the Laplacian over `width` x `height` packed samples at `pixels`, by the
    /// row loop of `path` (every path gives the same sums).
    static func statistics(pixels: UnsafePointer<UInt8>, width: Int, height: Int, path: KernelPath) -> LaplacianStatistics {
        var sum: Int64 = 0
        var sumOfSquares: Int64 = 0
        for y in 0..<height {
            let center = pixels + y * width
            let above = pixels + reflect101(y - 1, count: height) * width
            let below = pixels + reflect101(y + 1, count: height) * width
            let row = segmentSums(above: above, center: center, below: below, width: width, from: 0, to: width, path: path)
            sum &+= row.sum
            sumOfSquares &+= row.sumOfSquares
        }
        return LaplacianStatistics(count: width * height, sum: sum, sumOfSquares: sumOfSquares)
    }

    /// OpenCV's BORDER_REFLECT_101 (`gfedcb|abcdefgh|gfedcba`) for one step past either edge.
    @inline(__always)
    static func reflect101(_ index: Int, count: Int) -> Int {
        if count == 1 { return 0 }
        if index < 0 { return 1 }
        if index >= count { return count - 2 }
        return index
    }

    @inline(__always)
    private static func response(above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>, x: Int, width: Int) -> Int64 {
        let left = reflect101(x - 1, count: width)
        let right = reflect101(x + 1, count: width)
        return Int64(above[x]) + Int64(below[x]) + Int64(center[left]) + Int64(center[right]) - 4 * Int64(center[x])
    }

    /// Sums of the responses of columns `start ..< end` of one row; the interior in vectors of
    /// 16, the two image edges and the tail scalar.
    private static func segmentSums(
        above: UnsafePointer<UInt8>,
        center: UnsafePointer<UInt8>,
        below: UnsafePointer<UInt8>,
        width: Int,
        from start: Int,
        to end: Int,
        path: KernelPath
    ) -> (sum: Int64, sumOfSquares: Int64) {
        var sum: Int64 = 0
        var sumOfSquares: Int64 = 0
        var x = start
        if x == 0 {
            let value = response(above: above, center: center, below: below, x: 0, width: width)
            sum &+= value
            sumOfSquares &+= value &* value
            x = 1
        }
        let interiorEnd = min(end, width - 1)
        let vectorEnd = interiorEnd - laneCount
        #if arch(x86_64)
        if path == .avx2, x <= vectorEnd {
            // The same columns in the same steps of sixteen as the loop below.
            let steps = (vectorEnd - x) / laneCount + 1
            let sums = LaplacianVarianceAVX2.rowSums(above: above, center: center, below: below, from: x, steps: steps)
            sum &+= sums.sum
            sumOfSquares &+= sums.sumOfSquares
            x += steps * laneCount
        }
        #endif
        if x <= vectorEnd {
            var laneSum = Lanes()
            var laneSquares = Lanes()
            var steps = 0
            let up = UnsafeRawPointer(above)
            let mid = UnsafeRawPointer(center)
            let down = UnsafeRawPointer(below)
            while x <= vectorEnd {
                let top = SampleLanes(up, x), bottom = SampleLanes(down, x)
                let left = SampleLanes(mid, x - 1), right = SampleLanes(mid, x + 1), middle = SampleLanes(mid, x)
                // |response| <= 1020 fits 16 bits; widened, four responses go to each 32-bit lane.
                let evenResponse = (top.even &+ bottom.even) &+ (left.even &+ right.even) &- (middle.even &<< 2)
                let oddResponse = (top.odd &+ bottom.odd) &+ (left.odd &+ right.odd) &- (middle.odd &<< 2)
                let (a, b) = SampleLanes.widened(evenResponse), (c, d) = SampleLanes.widened(oddResponse)
                laneSum &+= a &+ b &+ c &+ d
                laneSquares &+= a &* a &+ b &* b &+ c &* c &+ d &* d
                x += laneCount
                steps += 1
                if steps == flushInterval {
                    sum &+= SIMD4<Int64>(truncatingIfNeeded: laneSum).wrappedSum()
                    sumOfSquares &+= SIMD4<Int64>(truncatingIfNeeded: laneSquares).wrappedSum()
                    laneSum = Lanes()
                    laneSquares = Lanes()
                    steps = 0
                }
            }
            sum &+= SIMD4<Int64>(truncatingIfNeeded: laneSum).wrappedSum()
            sumOfSquares &+= SIMD4<Int64>(truncatingIfNeeded: laneSquares).wrappedSum()
        }
        while x < end {
            let value = response(above: above, center: center, below: below, x: x, width: width)
            sum &+= value
            sumOfSquares &+= value &* value
            x += 1
        }
        return (sum, sumOfSquares)
    }
}
