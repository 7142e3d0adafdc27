#if arch(x86_64)
import BlurMetricsAVX2
#endif

/// A robust estimate of the noise on a luma plane that does not depend on how much of the picture
/// is textured: the median absolute value of the finest diagonal detail, the Haar wavelet's HH
/// band over the plane's 2x2 blocks, as Donoho and Johnstone estimate noise (sigma = median / 0.6745).
///
/// White noise of standard deviation sigma gives HH coefficients of the same deviation wherever it
/// is. Edges and textures change the median only where they cover more than half of the blocks,
/// and horizontal or vertical structure (a grid, tiles, shelves, stripes) leaves HH at zero, so a
/// picture textured from edge to edge shows its noise, not its texture, and no flat region is
/// needed (the 10th percentile of tile energies, the floor before, took a uniform texture's own
/// detail for noise). The values are taken at AVX2 width where the CPU has it (`KernelPath`).
public struct NoiseEstimate: Sendable, Equatable {
    /// The estimated standard deviation of white noise on the plane, in 8-bit levels.
    public let sigma: Double

    /// Estimates the noise of `plane` (0 for a plane smaller than 2x2).
    public init(plane: LumaPlane) {
        self.init(plane: plane, path: .best)
    }

    /// Estimates the noise of `plane` by the row loops of `path` (every path counts the same histogram).
    init(plane: LumaPlane, path: KernelPath) {
        let blocks = (plane.height / 2) * (plane.width / 2)
        guard blocks > 0 else {
            sigma = 0
            return
        }
        sigma = Self.median(of: Self.diagonalHistogram(of: plane, path: path), count: blocks) / 2 / 0.6745
    }

    /// How many of `plane`'s 2x2 blocks `a b / c d` (from the top-left corner; a last odd row or
    /// column is left out) have each value of |a - b - c + d|, 0 to 510, counted by the row loops of `path`.
    static func diagonalHistogram(of plane: LumaPlane, path: KernelPath) -> [Int] {
        let width = plane.width, blockRows = plane.height / 2, blockColumns = plane.width / 2
        // |a - b - c + d| of a 2x2 block is twice |HH|, an integer from 0 to 510. Four interleaved
        // histograms, summed at the end: in flat regions most values fall in one bin, and
        // increments of a single counter would wait on each other.
        let bins = 511
        var counts = [Int32](repeating: 0, count: 4 * bins)
        // The AVX2 path writes a row's values here first, then counts them.
        let values = UnsafeMutablePointer<UInt16>.allocate(capacity: path == .avx2 ? blockColumns : 0)
        defer { values.deallocate() }
        plane.pixels.withUnsafeBufferPointer { pixels in
            counts.withUnsafeMutableBufferPointer { counts in
                let counts = counts.baseAddress!
                for blockRow in 0..<blockRows {
                    let top = pixels.baseAddress! + 2 * blockRow * width
                    let bottom = top + width
                    #if arch(x86_64)
                    if path == .avx2 {
                        BlockSumsAVX2.diagonalDetail(top: top, bottom: bottom, blocks: blockColumns, into: values)
                        var blockColumn = 0
                        while blockColumn + 4 <= blockColumns {
                            for lane in 0..<4 { counts[lane &* bins &+ Int(values[blockColumn &+ lane])] &+= 1 }
                            blockColumn &+= 4
                        }
                        while blockColumn < blockColumns {
                            counts[Int(values[blockColumn])] &+= 1
                            blockColumn &+= 1
                        }
                        continue
                    }
                    #endif
                    var blockColumn = 0
                    // Wrapping arithmetic: every value is within -510...510 and no count reaches
                    // 2^31, so the checks for overflow (a branch on every step) could never fire.
                    while blockColumn + 4 <= blockColumns {
                        for lane in 0..<4 {
                            let x = 2 &* (blockColumn &+ lane)
                            let value = Int(top[x]) &- Int(top[x &+ 1]) &- Int(bottom[x]) &+ Int(bottom[x &+ 1])
                            counts[lane &* bins &+ (value < 0 ? 0 &- value : value)] &+= 1
                        }
                        blockColumn &+= 4
                    }
                    while blockColumn < blockColumns {
                        let x = 2 &* blockColumn
                        let value = Int(top[x]) &- Int(top[x &+ 1]) &- Int(bottom[x]) &+ Int(bottom[x &+ 1])
                        counts[value < 0 ? 0 &- value : value] &+= 1
                        blockColumn &+= 1
                    }
                }
            }
        }
        return (0..<bins).map { Int(counts[$0]) + Int(counts[bins + $0]) + Int(counts[2 * bins + $0]) + Int(counts[3 * bins + $0]) }
    }

    /// The deviation of noise on `plane` that is white at the plane's scale: the estimate of
    /// `init(plane:)`, but never more than twice the same estimate on the plane halved.
    ///
    /// Averaging 2x2 blocks halves white noise's deviation, so noise can leave no less than half
    /// its deviation in the halved plane's finest band. Detail the finest band holds that vanishes
    /// when the plane is halved is a pattern near the plane's Nyquist frequency: what area
    /// resampling leaves of a pattern of a few pixels' period (the gateway's 4 px grid, slats,
    /// fabric) folded at this scale, not noise. Textured photos, whose finest detail goes on at
    /// coarser scales, and noisy ones keep their estimate.
    /// Pass `halved` when the caller has `plane.halved()` at hand.
    public static func whiteNoiseSigma(of plane: LumaPlane, halved: LumaPlane? = nil) -> Double {
        whiteNoiseSigma(of: plane, halved: halved, path: .best)
    }

    /// `whiteNoiseSigma(of:halved:)` by the row loops of `path`.
    static func whiteNoiseSigma(of plane: LumaPlane, halved: LumaPlane?, path: KernelPath) -> Double {
        let full = NoiseEstimate(plane: plane, path: path).sigma
        guard let half = halved ?? plane.halved(path: path) else { return full }
        return min(full, 2 * NoiseEstimate(plane: half, path: path).sigma)
    }

    /// The median of integer values counted in `histogram`, interpolated within its bin (bin 0
    /// spans 0 to 0.5, bin m > 0 spans m - 0.5 to m + 0.5) so that it moves smoothly with the noise.
    static func median(of histogram: [Int], count: Int) -> Double {
        let half = Double(count) / 2
        var below = 0
        for (value, inBin) in histogram.enumerated() where inBin > 0 {
            if Double(below + inBin) >= half {
                let (low, width) = value == 0 ? (0.0, 0.5) : (Double(value) - 0.5, 1.0)
                return low + width * (half - Double(below)) / Double(inBin)
            }
            below += inBin
        }
        return 0
    }
}
