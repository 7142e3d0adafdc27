/// Turns decoded 8-bit rows, fed top to bottom in strips, into the luma plane at the analysis
/// scale in one pass: grey conversion, horizontal and vertical area resampling, with no per-pixel
/// allocation and memory bounded by the output plane plus a few rows. Use it on one thread.
public final class AnalysisPlaneBuilder {
    /// Width of the plane being built.
    public let targetWidth: Int
    /// Height of the plane being built.
    public let targetHeight: Int
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let bands: Int
    private let resampler: Resampler?
    private var plane: [UInt8]
    private var nextSourceRow = 0
    /// The finer plane's size, when one is kept (`keepsFinerPlane` and the source is resampled).
    private let finerSize: (width: Int, height: Int)?
    /// Resamples the finer plane when the source is more than twice the target; nil: source rows copied.
    private let finerResampler: Resampler?
    private var finerPlane: [UInt8]
    private var lumaRow: [UInt8]

    /// Prepares to build the analysis plane of a `sourceWidth` x `sourceHeight` image with `bands`
    /// samples per pixel, at `scale`.
    public convenience init(sourceWidth: Int, sourceHeight: Int, bands: Int, scale: AnalysisScale, keepsFinerPlane: Bool = false) {
        let size = scale.analysisSize(width: sourceWidth, height: sourceHeight)
        self.init(sourceWidth: sourceWidth, sourceHeight: sourceHeight, bands: bands, targetWidth: size.width, targetHeight: size.height,
                  keepsFinerPlane: keepsFinerPlane)
    }

    /// Prepares to build a `targetWidth` x `targetHeight` plane (each clamped to the source size)
    /// from a `sourceWidth` x `sourceHeight` image with `bands` samples per pixel.
    ///
    /// Taking the target from the original header, not from a shrunk decode, keeps the analysis
    /// plane of one photo the same whatever shrink-on-load factor produced the source rows.
    ///
    /// With `keepsFinerPlane`, when the source is larger than the target, a finer plane is kept
    /// beside it (`finishFiner()`): the source's luma as decoded when its shortest side is at most
    /// four times the target's, else the source area-resampled to twice the target. Detail finer than
    /// the analysis plane can hold (a pattern of a few pixels' period) survives there.
    public init(sourceWidth: Int, sourceHeight: Int, bands: Int, targetWidth: Int, targetHeight: Int, keepsFinerPlane: Bool = false) {
        precondition(sourceWidth > 0 && sourceHeight > 0 && (1...4).contains(bands), "invalid source geometry")
        precondition(targetWidth > 0 && targetHeight > 0, "invalid target size")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.bands = bands
        let size = (width: min(targetWidth, sourceWidth), height: min(targetHeight, sourceHeight))
        self.targetWidth = size.width
        self.targetHeight = size.height
        // Every row is written before `finish()` can return the plane (and `band` reads only
        // written rows), so the buffers skip being zeroed first: megabytes per photo.
        self.plane = Self.unfilled(size.width * size.height)
        self.lumaRow = [UInt8](repeating: 0, count: sourceWidth)
        if size.width == sourceWidth && size.height == sourceHeight {
            self.resampler = nil
            self.finerSize = nil
            self.finerResampler = nil
            self.finerPlane = []
        } else {
            self.resampler = Resampler(
                horizontal: AreaResamplingAxis(sourceCount: sourceWidth, targetCount: size.width, fractionBits: 14),
                vertical: AreaResamplingAxis(sourceCount: sourceHeight, targetCount: size.height, fractionBits: 12)
            )
            if keepsFinerPlane {
                let finer = Self.finerSize(sourceWidth: sourceWidth, sourceHeight: sourceHeight, targetWidth: size.width, targetHeight: size.height)
                self.finerSize = finer
                self.finerPlane = Self.unfilled(finer.width * finer.height)
                self.finerResampler = finer == (sourceWidth, sourceHeight) ? nil : Resampler(
                    horizontal: AreaResamplingAxis(sourceCount: sourceWidth, targetCount: finer.width, fractionBits: 14),
                    vertical: AreaResamplingAxis(sourceCount: sourceHeight, targetCount: finer.height, fractionBits: 12)
                )
            } else {
                self.finerSize = nil
                self.finerResampler = nil
                self.finerPlane = []
            }
        }
    }

    /// The size of the finer plane kept beside a `targetWidth` x `targetHeight` analysis plane of a
    /// `sourceWidth` x `sourceHeight` source: the source when its shortest side is at most
    /// `finerSourceLimit` times the target's (every JPEG decoded at just over twice the analysis
    /// size, a PNG up to 4096x4096), else twice the target.
    public static func finerSize(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int) -> (width: Int, height: Int) {
        if min(sourceWidth, sourceHeight) <= finerSourceLimit * min(targetWidth, targetHeight) {
            return (sourceWidth, sourceHeight)
        }
        return (min(sourceWidth, 2 * targetWidth), min(sourceHeight, 2 * targetHeight))
    }

    /// A buffer of `count` bytes that the builder writes in full before anything reads it.
    private static func unfilled(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Up to this many times the target's shortest side, the source itself is the finer plane: no
    /// second resampling pass, and no second fold of a fine pattern. Four: the gateway's 4 px grid
    /// in a 4096x4096 PNG folds to flat grey at twice the target.
    public static let finerSourceLimit = 4

    /// Consumes `count` rows that start at `rows`, `rowStride` bytes apart, continuing where the
    /// previous call stopped.
    public func append(rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) {
        precondition(nextSourceRow + count <= sourceHeight, "more rows than the image has")
        let width = sourceWidth
        let bands = bands
        plane.withUnsafeMutableBufferPointer { output in
            guard let resampler else {
                for row in 0..<count {
                    GrayConversion.convertRow(
                        rows + row * rowStride, bands: bands, count: width,
                        into: output.baseAddress! + (nextSourceRow + row) * width
                    )
                }
                return
            }
            lumaRow.withUnsafeMutableBufferPointer { luma in
                finerPlane.withUnsafeMutableBufferPointer { finer in
                    for row in 0..<count {
                        let sourceRow = nextSourceRow + row
                        // Grey rows are luma as they are: no copy.
                        let lumaRow: UnsafePointer<UInt8>
                        if bands == 1 {
                            lumaRow = rows + row * rowStride
                        } else {
                            GrayConversion.convertRow(rows + row * rowStride, bands: bands, count: width, into: luma.baseAddress!)
                            lumaRow = UnsafePointer(luma.baseAddress!)
                        }
                        resampler.consume(luma: lumaRow, sourceRow: sourceRow, into: output.baseAddress!)
                        guard finerSize != nil else { continue }
                        if let finerResampler {
                            finerResampler.consume(luma: lumaRow, sourceRow: sourceRow, into: finer.baseAddress!)
                        } else {
                            (finer.baseAddress! + sourceRow * width).update(from: lumaRow, count: width)
                        }
                    }
                }
            }
        }
        nextSourceRow += count
    }

    /// Rows of the analysis plane written so far, from the top: all of them once every source row
    /// has been appended.
    public var finishedRows: Int {
        resampler?.nextTargetToFinish ?? nextSourceRow
    }

    /// Band `index` of `count` of the plane being built (`OrientedDetail.band(_:of:plane:tileSize:)`,
    /// the same sums), measured from the rows written so far; nil while some row it reads is not
    /// written yet. Measuring the top of the plane while the decoder makes the bottom leaves less
    /// to measure once it has ended.
    public func band(_ index: Int, of count: Int, tileSize: Int = OrientedDetail.defaultTileSize) -> OrientedDetail.TileBand? {
        let needed = OrientedDetail.rowsRead(byBand: index, of: count, width: targetWidth, height: targetHeight, tileSize: tileSize)
        guard finishedRows >= needed else { return nil }
        return plane.withUnsafeBufferPointer { pixels in
            OrientedDetail.band(index, of: count, pixels: pixels.baseAddress!, width: targetWidth, height: targetHeight, tileSize: tileSize)
        }
    }

    /// The finished plane; every source row must have been appended.
    public func finish() -> LumaPlane {
        precondition(nextSourceRow == sourceHeight, "the plane is finished only after every row")
        return LumaPlane(width: targetWidth, height: targetHeight, pixels: plane)
    }

    /// The finer plane (see `init`), once every source row has been appended; nil when none was
    /// kept (not asked for, or the source is measured as it is).
    public func finishFiner() -> LumaPlane? {
        precondition(nextSourceRow == sourceHeight, "the plane is finished only after every row")
        guard let finerSize else { return nil }
        return LumaPlane(width: finerSize.width, height: finerSize.height, pixels: finerPlane)
    }
}

/// Scratch rows and weight tables for the resampling path; one per image.
private final class Resampler {
    let horizontal: AreaResamplingAxis
    let vertical: AreaResamplingAxis
    /// For each source row, the first target row it feeds and its weights for that row and the next.
    let firstTarget: [Int]
    let weightFirst: [UInt32]
    let weightSecond: [UInt32]
    let lastSource: [Int]
    var horizontalRow: [UInt16]
    var accumulators: [UInt32]
    var nextTargetToFinish = 0
    /// The horizontal pass's leading targets in groups of four for `AreaResamplingGroups` (a
    /// byte shuffle gathers each target's taps): each group's first source sample, its taps'
    /// offsets from it as shuffle masks, and their weights. Targets after the last group that fits
    /// (at most 4 taps within 16 samples of the group's first, 16 samples readable from it: all
    /// but the last few of a row) are resampled one at a time.
    let groupBases: [Int32]
    let groupOffsets: [UInt8]
    let groupWeights: [Int16]

    init(horizontal: AreaResamplingAxis, vertical: AreaResamplingAxis) {
        self.horizontal = horizontal
        self.vertical = vertical
        var firstTarget = [Int](repeating: -1, count: vertical.sourceCount)
        var weightFirst = [UInt32](repeating: 0, count: vertical.sourceCount)
        var weightSecond = [UInt32](repeating: 0, count: vertical.sourceCount)
        for target in 0..<vertical.targetCount {
            for tap in 0..<vertical.taps {
                let weight = vertical.weights[target * vertical.taps + tap]
                guard weight > 0 else { continue }
                let source = vertical.starts[target] + tap
                if firstTarget[source] < 0 {
                    firstTarget[source] = target
                    weightFirst[source] = weight
                } else {
                    // Shrinking by at least 1x, a source row overlaps at most two adjacent targets.
                    precondition(target == firstTarget[source] + 1, "a source row feeds at most two adjacent rows")
                    weightSecond[source] = weight
                }
            }
        }
        self.firstTarget = firstTarget
        self.weightFirst = weightFirst
        self.weightSecond = weightSecond
        self.lastSource = (0..<vertical.targetCount).map(vertical.lastSource(of:))
        self.horizontalRow = [UInt16](repeating: 0, count: horizontal.targetCount)
        self.accumulators = [UInt32](repeating: 0, count: 2 * horizontal.targetCount)
        var bases: [Int32] = [], offsets: [UInt8] = [], groupWeights: [Int16] = []
        let taps = horizontal.taps
        // Each target's weights sum to 1 << fractionBits: at most 14 bits keeps 255 times the sum, shifted by 6, in 16 bits.
        if taps <= 4, horizontal.fractionBits <= 14, horizontal.weights.allSatisfy({ $0 < 1 << 15 }) {
            for group in 0..<(horizontal.targetCount / 4) {
                let base = horizontal.starts[4 * group]
                guard horizontal.starts[4 * group + 3] + taps - base <= 16, base + 16 <= horizontal.sourceCount else { break }
                bases.append(Int32(base))
                for target in (4 * group)..<(4 * group + 4) {
                    for tap in 0..<4 {
                        offsets.append(tap < taps ? UInt8(horizontal.starts[target] + tap - base) : 0x80)
                        offsets.append(0x80)
                        groupWeights.append(tap < taps ? Int16(horizontal.weights[target * taps + tap]) : 0)
                    }
                }
            }
        }
        self.groupBases = bases
        self.groupOffsets = offsets
        self.groupWeights = groupWeights
    }

    /// Feeds one source row of luma, `sourceRow`, finishing every target row of `plane` it completes.
    func consume(luma: UnsafePointer<UInt8>, sourceRow: Int, into plane: UnsafeMutablePointer<UInt8>) {
        let width = horizontal.targetCount
        do {
            horizontalRow.withUnsafeMutableBufferPointer { resampled in
                resampleRow(luma, into: resampled.baseAddress!)
                accumulators.withUnsafeMutableBufferPointer { accumulators in
                    let target = firstTarget[sourceRow]
                    if target >= 0 {
                        accumulate(resampled.baseAddress!, weight: weightFirst[sourceRow],
                                   into: accumulators.baseAddress! + (target & 1) * width, count: width)
                        let second = weightSecond[sourceRow]
                        if second > 0 {
                            accumulate(resampled.baseAddress!, weight: second,
                                       into: accumulators.baseAddress! + ((target + 1) & 1) * width, count: width)
                        }
                    }
                    while nextTargetToFinish < vertical.targetCount, lastSource[nextTargetToFinish] <= sourceRow {
                        let target = nextTargetToFinish
                        let accumulator = accumulators.baseAddress! + (target & 1) * width
                        let output = plane + target * width
                        for x in 0..<width {
                            // 8 fractional bits from the horizontal pass, 12 from the vertical one.
                            output[x] = UInt8(truncatingIfNeeded: (accumulator[x] &+ (1 << 19)) >> 20)
                            accumulator[x] = 0
                        }
                        nextTargetToFinish += 1
                    }
                }
            }
        }
    }

    private func resampleRow(_ luma: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt16>) {
        let grouped = 4 * groupBases.count
        if grouped > 0 {
            groupBases.withUnsafeBufferPointer { bases in
                groupOffsets.withUnsafeBufferPointer { offsets in
                    groupWeights.withUnsafeBufferPointer { weights in
                        AreaResamplingGroups.resample(luma, bases: bases.baseAddress!, offsets: offsets.baseAddress!, weights: weights.baseAddress!,
                                                                      groups: bases.count, into: output)
                    }
                }
            }
        }
        guard grouped < horizontal.targetCount else { return }
        horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
                // Shrinking by 1x to 3x needs 2 to 4 taps: fixed-width loops the compiler unrolls.
                switch horizontal.taps {
                case 1: Self.resample(luma, starts, weights.baseAddress!, output, taps: 1, from: grouped)
                case 2: Self.resample(luma, starts, weights.baseAddress!, output, taps: 2, from: grouped)
                case 3: Self.resample(luma, starts, weights.baseAddress!, output, taps: 3, from: grouped)
                case 4: Self.resample(luma, starts, weights.baseAddress!, output, taps: 4, from: grouped)
                case 5: Self.resample(luma, starts, weights.baseAddress!, output, taps: 5, from: grouped)
                default: Self.resample(luma, starts, weights.baseAddress!, output, taps: horizontal.taps, from: grouped)
                }
            }
        }
    }

    /// Targets `first...` of the horizontal pass, one at a time.
    @inline(__always)
    private static func resample(
        _ luma: UnsafePointer<UInt8>,
        _ starts: UnsafeBufferPointer<Int>,
        _ weights: UnsafePointer<UInt32>,
        _ output: UnsafeMutablePointer<UInt16>,
        taps: Int,
        from first: Int
    ) {
        var weight = weights + first * taps
        for target in first..<starts.count {
            let source = luma + starts[target]
            var sum: UInt32 = 0
            for tap in 0..<taps {
                sum &+= UInt32(source[tap]) &* weight[tap]
            }
            // 14-bit weights; keep 8 fractional bits so the vertical pass rounds once.
            output[target] = UInt16(truncatingIfNeeded: (sum &+ (1 << 5)) >> 6)
            weight += taps
        }
    }

    @inline(__always)
    private func accumulate(_ row: UnsafeMutablePointer<UInt16>, weight: UInt32, into accumulator: UnsafeMutablePointer<UInt32>, count: Int) {
        for x in 0..<count {
            accumulator[x] &+= UInt32(row[x]) &* weight
        }
    }
}
