/// Box-averages the strips of a PNG or WebP decode by a whole factor into the pixels the content
/// check's preview is made from, so the preview needs no second decode of the photo.
final class PreviewReducer {
    /// The reduced pixels, handed to the preview encoder once every row has arrived.
    let pixels: PreviewPixels
    private let factor: Int
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let bands: Int
    // Each source column's sums (by band) over the rows of the reduced row being built, and how
    // many source rows are in them.
    private let columnSums: UnsafeMutablePointer<UInt32>
    private var rowsSummed = 0
    private var reducedRow = 0

    /// The largest factor: a block of up to 255 x 255 samples keeps its reciprocal exact. A
    /// picture that would allow more is reduced by this much and resized the rest of the way.
    static let maximumFactor = 255

    /// The reduced width of a `width`-pixel row at `factor` (a partial block at the end counts).
    static func reducedSide(_ side: Int, factor: Int) -> Int { (side + factor - 1) / factor }

    /// The bytes a reduction of `width` x `height` with `bands` samples holds.
    static func estimatedBytes(width: Int, height: Int, bands: Int, factor: Int) -> Int {
        let reducedWidth = reducedSide(width, factor: factor)
        return reducedWidth * reducedSide(height, factor: factor) * bands + width * bands * 4
    }

    /// A reducer for a decode of `width` x `height` with `bands` 8-bit samples (1 to 4: grey,
    /// grey and alpha, RGB, RGBA), by `factor` on both axes.
    init(width: Int, height: Int, bands: Int, factor: Int) {
        precondition((1...4).contains(bands) && (1...Self.maximumFactor).contains(factor) && width > 0 && height > 0, "a reduction needs pixels and a factor")
        self.factor = factor
        self.sourceWidth = width
        self.sourceHeight = height
        self.bands = bands
        let reducedWidth = Self.reducedSide(width, factor: factor), reducedHeight = Self.reducedSide(height, factor: factor)
        let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: reducedWidth * reducedHeight * bands)
        pixels = PreviewPixels(layout: .rgb(bands: bands), width: reducedWidth, height: reducedHeight, samples: samples)
        columnSums = .allocate(capacity: width * bands)
        columnSums.initialize(repeating: 0, count: width * bands)
    }

    deinit {
        columnSums.deallocate()
    }

    /// Adds `count` decoded rows, `rowStride` bytes apart.
    func append(rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) {
        let samples = sourceWidth * bands
        for row in 0..<count {
            let source = rows + row * rowStride
            // Rows are summed column by column first (a loop the compiler vectorises); the
            // blocks across are summed once per reduced row, in `emitRow`.
            let sums = columnSums
            for index in 0..<samples { sums[index] &+= UInt32(source[index]) }
            rowsSummed += 1
            if rowsSummed == factor || reducedRow * factor + rowsSummed == sourceHeight { emitRow() }
        }
    }

    /// Writes the rounded means of the summed blocks as one reduced row and starts the next.
    private func emitRow() {
        let factor = factor, width = sourceWidth, bands = bands, reducedWidth = pixels.width
        let output = pixels.samples + reducedRow * reducedWidth * bands
        let rows = UInt64(rowsSummed)
        // A division per sample cost more than the whole decode's other work here; every full
        // block shares one divisor, so each mean is a multiply by its reciprocal instead.
        let fullCount = rows * UInt64(factor)
        let reciprocal = Self.reciprocal(of: fullCount), half = fullCount / 2
        let fullColumns = width / factor
        let sums = columnSums
        // Constant bands and factor let the compiler unroll the block loops of the common
        // cases (a 2x to 4x reduction of grey, RGB or RGBA).
        switch (bands, factor) {
        case (3, 2): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 3, factor: 2, reciprocal: reciprocal, half: half)
        case (3, 3): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 3, factor: 3, reciprocal: reciprocal, half: half)
        case (3, 4): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 3, factor: 4, reciprocal: reciprocal, half: half)
        case (4, 2): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 4, factor: 2, reciprocal: reciprocal, half: half)
        case (4, 3): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 4, factor: 3, reciprocal: reciprocal, half: half)
        case (4, 4): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 4, factor: 4, reciprocal: reciprocal, half: half)
        case (1, 2): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 1, factor: 2, reciprocal: reciprocal, half: half)
        // A JPEG's Y plane box-reduced for a thumbnail (`LibJPEGDecoder`).
        case (1, 4): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 1, factor: 4, reciprocal: reciprocal, half: half)
        case (1, 8): Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: 1, factor: 8, reciprocal: reciprocal, half: half)
        default: Self.emitFullBlocks(sums, into: output, columns: fullColumns, bands: bands, factor: factor, reciprocal: reciprocal, half: half)
        }
        if fullColumns < reducedWidth {
            // The partial block at the right edge.
            let first = fullColumns * factor, count = rows * UInt64(width - first)
            let edgeReciprocal = Self.reciprocal(of: count)
            for band in 0..<bands {
                var sum: UInt32 = 0
                for source in first..<width { sum &+= sums[source * bands + band] }
                output[fullColumns * bands + band] = UInt8(truncatingIfNeeded: Self.quotient(UInt64(sum) &+ count / 2, reciprocal: edgeReciprocal))
            }
        }
        sums.update(repeating: 0, count: width * bands)
        rowsSummed = 0
        reducedRow += 1
    }

    /// The rounded means of the first `columns` full blocks of `factor` summed columns each.
    @inline(__always)
    private static func emitFullBlocks(_ sums: UnsafeMutablePointer<UInt32>, into output: UnsafeMutablePointer<UInt8>, columns: Int,
                                       bands: Int, factor: Int, reciprocal: UInt64, half: UInt64) {
        var source = UnsafePointer(sums)
        var target = output
        for _ in 0..<columns {
            for band in 0..<bands {
                var sum: UInt32 = 0
                for step in 0..<factor { sum &+= source[step * bands + band] }
                target[band] = UInt8(truncatingIfNeeded: quotient(UInt64(sum) &+ half, reciprocal: reciprocal))
            }
            source += factor * bands
            target += bands
        }
    }

    /// The fixed-point reciprocal of a block's sample count `count` (below 2^16), for `quotient`.
    static func reciprocal(of count: UInt64) -> UInt64 {
        precondition(count > 0 && count < 1 << 16, "a block of 1 to 65535 samples")
        return ((1 << 40) + count - 1) / count
    }

    /// `dividend / count` rounded down, for a dividend below 256 times `count` (a sum of 8-bit
    /// samples plus half the count): with the reciprocal rounded up, the error stays under
    /// dividend / 2^40, below 1 / count, so the result is the exact integer quotient.
    @inline(__always)
    static func quotient(_ dividend: UInt64, reciprocal: UInt64) -> UInt64 {
        (dividend &* reciprocal) >> 40
    }
}
