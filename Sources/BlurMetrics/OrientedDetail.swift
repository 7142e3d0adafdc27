#if arch(x86_64)
import BlurMetricsAVX2
#endif

/// Detail along four orientations, per square tile, of the lightly denoised analysis plane: the
/// mean squared second derivative (curvature) and first derivative (gradient) along 0, 45, 90
/// and 135 degrees, from one fused pass.
///
/// Motion blur removes detail along one direction only, so an isotropic measure keeps seeing the
/// edges that run with the motion; per-orientation figures show the direction that lost its
/// detail. The plane is first smoothed with the 3x3 binomial filter (exactly
/// `BinomialSmoothing`), streamed through rings of three rows so that no plane is allocated.
/// Tiles are whole squares from the top-left corner; derivatives use reflect-101 borders.
/// The row loops run at AVX2 width where the CPU has it (`KernelPath`), with the same sums.
public struct OrientedDetail: Sendable, Equatable {
    /// The four orientations, counter-clockwise from horizontal.
    public enum Orientation: Int, Sendable, CaseIterable {
        /// Along rows (0 degrees).
        case horizontal = 0
        /// Towards the upper right (45 degrees).
        case rising = 1
        /// Along columns (90 degrees).
        case vertical = 2
        /// Towards the upper left (135 degrees).
        case falling = 3
    }

    /// The default tile side at the 1024 px analysis scale.
    public static let defaultTileSize = 48

    /// Tile side in pixels.
    public let tileSize: Int
    /// Whole tiles per row.
    public let columns: Int
    /// Whole tiles per column.
    public let rows: Int
    /// Per orientation (by `Orientation.rawValue`), per tile (row by row): the mean squared
    /// second derivative, in 8-bit levels squared per pixel squared.
    public let curvature: [[Double]]
    /// Per orientation, per tile: the mean squared first derivative (central difference).
    public let gradient: [[Double]]
    /// The plane's noise, in 8-bit levels (`NoiseEstimate`).
    public let noiseSigma: Double

    /// Measures `plane` in tiles of `tileSize` (or of its shortest side, when smaller); pass
    /// `halved` when `plane.halved()` is at hand (the noise estimate reads it).
    public init(plane: LumaPlane, tileSize: Int = defaultTileSize, halved: LumaPlane? = nil) {
        self.init(plane: plane, tileSize: tileSize, bands: [Self.band(0, of: 1, plane: plane, tileSize: tileSize)],
                  noiseSigma: NoiseEstimate.whiteNoiseSigma(of: plane, halved: halved))
    }

    /// The measurement of `plane` from its `bands` of tile rows (`band(_:of:plane:tileSize:)`, all
    /// of them, made with the same `tileSize`) and its `noiseSigma`
    /// (`NoiseEstimate.whiteNoiseSigma(of:halved:)`): the same as `init(plane:tileSize:halved:)`.
    public init(plane: LumaPlane, tileSize: Int = defaultTileSize, bands: [TileBand], noiseSigma: Double) {
        let side = Self.side(of: plane, tileSize: tileSize)
        self.tileSize = side
        let columns = plane.width / side, rows = plane.height / side
        self.columns = columns
        self.rows = rows
        precondition(bands.first?.tileRows.lowerBound == 0 && bands.last?.tileRows.upperBound == rows
                     && zip(bands, bands.dropFirst()).allSatisfy { $0.tileRows.upperBound == $1.tileRows.lowerBound }
                     && bands.allSatisfy { band in band.curvature.allSatisfy { $0.count == band.tileRows.count * columns } },
                     "the bands cover every tile row once, in order, in tiles of this size")
        var curvatureSums = [[Int64]](repeating: [Int64](repeating: 0, count: columns * rows), count: 4)
        var gradientSums = curvatureSums
        for band in bands {
            let first = band.tileRows.lowerBound * columns
            for k in 0..<4 {
                for (offset, value) in band.curvature[k].enumerated() { curvatureSums[k][first + offset] = value }
                for (offset, value) in band.gradient[k].enumerated() { gradientSums[k][first + offset] = value }
            }
        }
        let count = Double(side * side)
        // Diagonal steps are sqrt(2) px long: second differences along them are twice the
        // curvature, and central differences span 2 sqrt(2) px instead of 2 px.
        let curvatureScale = [1.0, 0.25, 1.0, 0.25].map { $0 / count }
        let gradientScale = [0.25, 0.125, 0.25, 0.125].map { $0 / count }
        curvature = (0..<4).map { k in curvatureSums[k].map { Double($0) * curvatureScale[k] } }
        gradient = (0..<4).map { k in gradientSums[k].map { Double($0) * gradientScale[k] } }
        self.noiseSigma = noiseSigma
    }

    /// The tile side used for `plane` when `tileSize` is asked: at most its shortest side.
    static func side(of plane: LumaPlane, tileSize: Int) -> Int {
        side(width: plane.width, height: plane.height, tileSize: tileSize)
    }

    /// The tile side used for a `width` x `height` plane when `tileSize` is asked.
    static func side(width: Int, height: Int, tileSize: Int) -> Int {
        max(1, min(tileSize, width, height))
    }

    /// The blur score: how sharp the strongest edges are along the weakest orientation.
    ///
    /// Per orientation, the `strongestShare` (0-1) of tiles with the most gradient energy are
    /// taken, each tile's energies less the noise floor (`noiseFloor(orientation:noisePercentile:)`),
    /// and the summed curvature is divided by the summed gradient: for an edge of width w this
    /// falls as 1/w^2 whatever its contrast, so dim rooms and white walls are not mistaken for blur,
    /// and noise is not mistaken for detail. The smallest of the four ratios, times 100, is the
    /// score: motion blur widens edges along one orientation. A plane whose strongest tiles hold,
    /// above the floor, less than `noiseGuard` times the gradient its noise leaves (flat noise, a
    /// flat colour) scores 0.
    public func score(strongestShare: Double, noisePercentile: Double = Self.defaultNoisePercentile) -> Double {
        let tiles = columns * rows
        guard tiles > 0 else { return 0 }
        let taken = max(1, Int((strongestShare * Double(tiles)).rounded(.down)))
        var weakest = Double.infinity
        for k in 0..<4 {
            let floor = noiseFloor(orientation: k, noisePercentile: noisePercentile)
            var curvatureSum = 0.0, gradientSum = 0.0
            for tile in strongestTiles(orientation: k, taken: taken) {
                curvatureSum += max(curvature[k][tile] - floor.curvature, 0)
                gradientSum += max(gradient[k][tile] - floor.gradient, 0)
            }
            let sigma = min(noiseSigma, Self.noiseCapMaximumSigma)
            let noiseGradient = Self.noiseGuard * Double(taken) * Self.noiseGradientGain[k] * sigma * sigma
            weakest = min(weakest, gradientSum > max(1e-9, noiseGradient) ? 100 * curvatureSum / gradientSum : 0)
        }
        return weakest
    }

    /// The energies per tile taken as noise along orientation `k`: the `noisePercentile` of all
    /// tiles (where flat regions show only sensor noise, and JPEG's blocks and ringing), but never
    /// more than `noiseCapMultiple` times what white noise of the plane's estimated deviation
    /// (at least `noiseCapMinimumSigma`) leaves, so that a picture textured from edge to edge, whose
    /// every tile holds the same detail, does not have its detail taken for noise.
    public func noiseFloor(orientation k: Int, noisePercentile: Double = Self.defaultNoisePercentile) -> (curvature: Double, gradient: Double) {
        let sigma = min(max(noiseSigma, Self.noiseCapMinimumSigma), Self.noiseCapMaximumSigma)
        let variance = Self.noiseCapMultiple * sigma * sigma
        return (min(Percentile.linear(unsorted: curvature[k], noisePercentile), variance * Self.noiseCurvatureGain[k]),
                min(Percentile.linear(unsorted: gradient[k], noisePercentile), variance * Self.noiseGradientGain[k]))
    }

    /// The `taken` tiles with the most gradient energy along orientation `k`, strongest first and
    /// equal energies in tile order: the order a stable sort by energy gives, which the scores sum in.
    func strongestTiles(orientation k: Int, taken: Int) -> ArraySlice<Int> {
        gradient[k].withUnsafeBufferPointer { energy in
            // A strict total order (tile indices break ties), so the `taken` tiles a selection puts
            // first, sorted, are exactly a whole sort's first `taken`: only they are sorted.
            func before(_ a: Int, _ b: Int) -> Bool { energy[a] > energy[b] || (energy[a] == energy[b] && a < b) }
            var tiles = Array(0..<energy.count)
            let count = min(taken, tiles.count)
            tiles.withUnsafeMutableBufferPointer { Self.selectFirst(count, of: $0, by: before) }
            tiles[..<count].sort(by: before)
            return tiles.prefix(count)
        }
    }

    /// Reorders `items` so that its first `count` are the `count` first by `before`, a strict
    /// total order, in any order (`Percentile.select`).
    static func selectFirst(_ count: Int, of items: UnsafeMutableBufferPointer<Int>, by before: (Int, Int) -> Bool) {
        guard count > 0, count < items.count else { return }
        Percentile.select(count - 1, in: items, by: before)
    }

    /// The noise floor's default percentile of tile energies.
    public static let defaultNoisePercentile = 10.0
    /// The cap on the percentile floor, in multiples of the energy the estimated noise leaves: the
    /// estimate reads the finest band, which JPEG thins out, so it is a lower bound of the noise.
    public static let noiseCapMultiple = 20.0
    /// The smallest noise deviation the cap assumes, in 8-bit levels: rounding and JPEG's blocks
    /// leave about this much on a smooth picture.
    public static let noiseCapMinimumSigma = 3.0
    /// The largest noise deviation the cap and the guard assume, in 8-bit levels. A finest band
    /// that reads more is a fine pattern that resampling or JPEG's scaled decoding folded (a grid
    /// of a few pixels' period turns into irregular 3 to 6 px repeats whose diagonal detail the
    /// estimate takes for noise), not sensor noise: at the analysis scale even a night shot's
    /// noise stays well under it, and with it a photo textured from edge to edge keeps the detail
    /// above twenty times this much noise.
    public static let noiseCapMaximumSigma = 8.0
    /// The share of the noise's gradient energy the strongest tiles must hold above the floor to
    /// be judged at all (chosen on the tuning part of the labelled set: README, Tuning; a JPEG of a
    /// fine moire pattern, whose ringing inflates the noise estimate, still passes at 0.5, not at 1).
    public static let noiseGuard = 0.5
    /// Mean squared curvature per orientation that white noise of unit variance leaves after the
    /// binomial smoothing (the sum of squares of the combined kernel, times the orientation's scale).
    public static let noiseCurvatureGain = [0.140625, 0.087890625, 0.140625, 0.087890625]
    /// Mean squared gradient per orientation that white noise of unit variance leaves.
    public static let noiseGradientGain = [0.05859375, 0.0341796875, 0.05859375, 0.0341796875]

    /// The blur score of an analysis plane: `OrientedDetail(plane:).score(strongestShare:)`, and,
    /// with `coarseWeight` > 0, the smaller of that and `coarseWeight` times the same score of the
    /// plane halved (`LumaPlane.halved()`), when the halved plane holds detail above its noise.
    ///
    /// The full-scale ratio sees edges one or two pixels wide; a blur that keeps part of the
    /// contrast sharp (hand shake that dwells, leaving a sharp ghost on a smeared copy) looks
    /// sharp there. At half scale the smear is what is left. A pattern finer than the halved
    /// plane can hold (a 4 px grid) leaves nothing there, and is judged at full scale alone.
    /// With `crossingCorrected`, the full-scale score is `crossingCorrectedScore(strongestShare:noisePercentile:)`.
    public static func score(of plane: LumaPlane, strongestShare: Double, coarseWeight: Double = 0,
                             crossingCorrected: Bool = false) -> Double {
        let half = plane.halved()
        let detail = OrientedDetail(plane: plane, halved: half)
        let coarse = coarseWeight > 0 ? half.map { OrientedDetail(plane: $0) } : nil
        return score(fine: detail, coarse: coarse, strongestShare: strongestShare, coarseWeight: coarseWeight, crossingCorrected: crossingCorrected)
    }

    /// The blur score of `score(of:strongestShare:coarseWeight:crossingCorrected:)` from its two
    /// measurements, which are independent and may be made at the same time: `fine`, the plane's
    /// (`OrientedDetail(plane:halved:)`), and `coarse`, the halved plane's (nil when there is
    /// none, or `coarseWeight` is 0).
    public static func score(fine: OrientedDetail, coarse: OrientedDetail?, strongestShare: Double, coarseWeight: Double,
                             crossingCorrected: Bool = false) -> Double {
        let fineScore = crossingCorrected ? fine.crossingCorrectedScore(strongestShare: strongestShare) : fine.score(strongestShare: strongestShare)
        guard coarseWeight > 0, let coarse else { return fineScore }
        let coarseScore = coarse.score(strongestShare: strongestShare)
        return coarseScore > 0 ? min(fineScore, coarseWeight * coarseScore) : fineScore
    }

    private typealias Half = SIMD8<Int16>
    private static let laneCount = 16
    /// The largest sum one 32-bit lane takes per vector step of sixteen columns: four squared
    /// second differences (the AVX2 loop adds two).
    private static let laneStepMaximum = 4 * 510 * 510

    /// Integer sums of squared second and first differences per orientation and tile, for the
    /// tiles of `tileRows` only (row by row, starting with the band's first), by the row loops of
    /// `path` (every path gives the same sums).
    static func tileSums(pixels: UnsafePointer<UInt8>, width: Int, height: Int, tileSize: Int, tileRows: Range<Int>,
                         path: KernelPath = .best) -> (curvature: [[Int64]], gradient: [[Int64]])
    {
        let columns = width / tileSize
        var curvature = [[Int64]](repeating: [Int64](repeating: 0, count: columns * tileRows.count), count: 4)
        var gradient = curvature
        guard columns > 0, !tileRows.isEmpty else { return (curvature, gradient) }
        // Rings of three rows: horizontally smoothed rows, and fully smoothed rows padded by one
        // reflected sample on each side so the derivative loop needs no edge cases.
        let padded = width + 2 + laneCount
        let horizontal = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * width)
        let smoothed = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * padded)
        smoothed.initialize(repeating: 0, count: 3 * padded)
        // Per tile column, eight lane accumulators (4 curvature, 4 gradient), for one tile row; the
        // baseline loop fills the low half of each.
        let accumulators = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: columns * 8)
        defer {
            horizontal.deallocate()
            smoothed.deallocate()
            accumulators.deallocate()
        }
        // Rows a tile's 32-bit lanes can take before they are flushed into the 64-bit sums.
        let stepsPerRow = (tileSize + laneCount - 1) / laneCount
        let flushRows = max(1, Int(Int32.max) / (laneStepMaximum * stepsPerRow))

        // A band starts its rings where its first row's neighbours need them: the smoothed row
        // above it, and the two rows above that one's centre unsmoothed.
        let firstY = tileRows.lowerBound * tileSize
        var horizontalDone = max(0, firstY - 2)
        func horizontalRow(_ y: Int) -> UnsafeMutablePointer<UInt8> { horizontal + (y % 3) * width }
        func ensureHorizontal(through y: Int) {
            while horizontalDone <= min(y, height - 1) {
                BinomialSmoothing.smoothRow(pixels + horizontalDone * width, into: horizontalRow(horizontalDone), width: width, path: path)
                horizontalDone += 1
            }
        }
        var smoothedDone = max(0, firstY - 1)
        func smoothedRow(_ y: Int) -> UnsafeMutablePointer<UInt8> { smoothed + (y % 3) * padded + 1 }
        func ensureSmoothed(through y: Int) {
            while smoothedDone <= min(y, height - 1) {
                let y = smoothedDone
                ensureHorizontal(through: y + 1)
                let out = smoothedRow(y)
                BinomialSmoothing.smoothColumns(
                    above: horizontalRow(LaplacianVariance.reflect101(y - 1, count: height)),
                    center: horizontalRow(y),
                    below: horizontalRow(LaplacianVariance.reflect101(y + 1, count: height)),
                    into: out, width: width, path: path
                )
                out[-1] = out[LaplacianVariance.reflect101(-1, count: width)]
                out[width] = out[LaplacianVariance.reflect101(width, count: width)]
                smoothedDone += 1
            }
        }
        func flush(tileRow: Int) {
            for column in 0..<columns {
                let tile = (tileRow - tileRows.lowerBound) * columns + column
                let lanes = accumulators + column * 8
                for k in 0..<4 {
                    curvature[k][tile] += widenedSum(lanes[k])
                    gradient[k][tile] += widenedSum(lanes[4 + k])
                }
            }
            accumulators.update(repeating: SIMD8<Int32>(), count: columns * 8)
        }

        accumulators.initialize(repeating: SIMD8<Int32>(), count: columns * 8)
        for tileRow in tileRows {
            for (index, y) in ((tileRow * tileSize)..<((tileRow + 1) * tileSize)).enumerated() {
                ensureSmoothed(through: y + 1)
                let above = UnsafePointer(smoothedRow(LaplacianVariance.reflect101(y - 1, count: height)))
                let center = UnsafePointer(smoothedRow(y))
                let below = UnsafePointer(smoothedRow(LaplacianVariance.reflect101(y + 1, count: height)))
                switch path {
                case .baseline:
                    for column in 0..<columns {
                        accumulate(above: above, center: center, below: below,
                                   from: column * tileSize, to: (column + 1) * tileSize,
                                   into: accumulators + column * 8)
                    }
                case .avx2:
                    #if arch(x86_64)
                    OrientedDetailAVX2.accumulateRow(above: above, center: center, below: below,
                                                     tileSize: tileSize, columns: columns, into: accumulators)
                    #else
                    preconditionFailure("AVX2 is an x86-64 path")
                    #endif
                }
                if (index + 1) % flushRows == 0 { flush(tileRow: tileRow) }
            }
            flush(tileRow: tileRow)
        }
        return (curvature, gradient)
    }

    /// The sum of the eight 32-bit lanes of `lanes`, in 64 bits.
    @inline(__always)
    private static func widenedSum(_ lanes: SIMD8<Int32>) -> Int64 {
        SIMD4<Int64>(truncatingIfNeeded: lanes.lowHalf).wrappedSum() &+ SIMD4<Int64>(truncatingIfNeeded: lanes.highHalf).wrappedSum()
    }

    /// Adds the squared differences of columns `start ..< end` of one row to the low halves of
    /// `lanes` (curvature 0, 45, 90, 135 degrees, then gradient in the same order); rows are padded
    /// by one sample. Each vector step takes sixteen columns as their even and odd halves (`SampleLanes`).
    @inline(__always)
    private static func accumulate(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        from start: Int, to end: Int, into lanes: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        let up = UnsafeRawPointer(above), mid = UnsafeRawPointer(center), down = UnsafeRawPointer(below)
        var c0 = lanes[0].lowHalf, c45 = lanes[1].lowHalf, c90 = lanes[2].lowHalf, c135 = lanes[3].lowHalf
        var g0 = lanes[4].lowHalf, g45 = lanes[5].lowHalf, g90 = lanes[6].lowHalf, g135 = lanes[7].lowHalf
        var x = start
        // Rows carry `laneCount` spare bytes after the padding, so a last partial vector may
        // read past the row; its extra lanes are masked off.
        while x < end {
            let middle = SampleLanes(mid, x), left = SampleLanes(mid, x - 1), right = SampleLanes(mid, x + 1)
            let top = SampleLanes(up, x), topLeft = SampleLanes(up, x - 1), topRight = SampleLanes(up, x + 1)
            let bottom = SampleLanes(down, x), bottomLeft = SampleLanes(down, x - 1), bottomRight = SampleLanes(down, x + 1)
            let twice = (even: middle.even &<< 1, odd: middle.odd &<< 1)
            var d0 = (left.even &+ right.even &- twice.even, left.odd &+ right.odd &- twice.odd)
            var d45 = (topRight.even &+ bottomLeft.even &- twice.even, topRight.odd &+ bottomLeft.odd &- twice.odd)
            var d90 = (top.even &+ bottom.even &- twice.even, top.odd &+ bottom.odd &- twice.odd)
            var d135 = (topLeft.even &+ bottomRight.even &- twice.even, topLeft.odd &+ bottomRight.odd &- twice.odd)
            var e0 = (right.even &- left.even, right.odd &- left.odd)
            var e45 = (topRight.even &- bottomLeft.even, topRight.odd &- bottomLeft.odd)
            var e90 = (bottom.even &- top.even, bottom.odd &- top.odd)
            var e135 = (topLeft.even &- bottomRight.even, topLeft.odd &- bottomRight.odd)
            if end - x < laneCount {
                // Even lane j holds column x + 2j, odd lane j column x + 2j + 1.
                let index = Half(0, 2, 4, 6, 8, 10, 12, 14)
                let keepEven = index .< Half(repeating: Int16(end - x))
                let keepOdd = (index &+ 1) .< Half(repeating: Int16(end - x))
                let zero = Half()
                d0.0.replace(with: zero, where: .!keepEven); d0.1.replace(with: zero, where: .!keepOdd)
                d45.0.replace(with: zero, where: .!keepEven); d45.1.replace(with: zero, where: .!keepOdd)
                d90.0.replace(with: zero, where: .!keepEven); d90.1.replace(with: zero, where: .!keepOdd)
                d135.0.replace(with: zero, where: .!keepEven); d135.1.replace(with: zero, where: .!keepOdd)
                e0.0.replace(with: zero, where: .!keepEven); e0.1.replace(with: zero, where: .!keepOdd)
                e45.0.replace(with: zero, where: .!keepEven); e45.1.replace(with: zero, where: .!keepOdd)
                e90.0.replace(with: zero, where: .!keepEven); e90.1.replace(with: zero, where: .!keepOdd)
                e135.0.replace(with: zero, where: .!keepEven); e135.1.replace(with: zero, where: .!keepOdd)
            }
            c0 &+= SampleLanes.squares(d0.0, d0.1); c45 &+= SampleLanes.squares(d45.0, d45.1)
            c90 &+= SampleLanes.squares(d90.0, d90.1); c135 &+= SampleLanes.squares(d135.0, d135.1)
            g0 &+= SampleLanes.squares(e0.0, e0.1); g45 &+= SampleLanes.squares(e45.0, e45.1)
            g90 &+= SampleLanes.squares(e90.0, e90.1); g135 &+= SampleLanes.squares(e135.0, e135.1)
            x += laneCount
        }
        lanes[0].lowHalf = c0; lanes[1].lowHalf = c45; lanes[2].lowHalf = c90; lanes[3].lowHalf = c135
        lanes[4].lowHalf = g0; lanes[5].lowHalf = g45; lanes[6].lowHalf = g90; lanes[7].lowHalf = g135
    }
}
