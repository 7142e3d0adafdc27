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
    private var columnSums: [UInt32]
    private var rowsSummed = 0
    private var reducedRow = 0

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
        precondition((1...4).contains(bands) && factor >= 1 && width > 0 && height > 0, "a reduction needs pixels and a factor")
        self.factor = factor
        self.sourceWidth = width
        self.sourceHeight = height
        self.bands = bands
        let reducedWidth = Self.reducedSide(width, factor: factor), reducedHeight = Self.reducedSide(height, factor: factor)
        let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: reducedWidth * reducedHeight * bands)
        pixels = PreviewPixels(layout: .rgb(bands: bands), width: reducedWidth, height: reducedHeight, samples: samples)
        columnSums = [UInt32](repeating: 0, count: width * bands)
    }

    /// Adds `count` decoded rows, `rowStride` bytes apart.
    func append(rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) {
        let samples = sourceWidth * bands
        for row in 0..<count {
            let source = rows + row * rowStride
            // Rows are summed column by column first (a loop the compiler vectorises); the
            // blocks across are summed once per reduced row, in `emitRow`.
            columnSums.withUnsafeMutableBufferPointer { sums in
                for index in 0..<samples { sums[index] &+= UInt32(source[index]) }
            }
            rowsSummed += 1
            if rowsSummed == factor || reducedRow * factor + rowsSummed == sourceHeight { emitRow() }
        }
    }

    /// Writes the rounded means of the summed blocks as one reduced row and starts the next.
    private func emitRow() {
        let factor = factor, width = sourceWidth, bands = bands, reducedWidth = pixels.width
        let output = pixels.samples + reducedRow * reducedWidth * bands
        columnSums.withUnsafeMutableBufferPointer { sums in
            for column in 0..<reducedWidth {
                let first = column * factor, last = min(first + factor, width)
                let count = UInt32(rowsSummed * (last - first))
                for band in 0..<bands {
                    var sum: UInt32 = 0
                    for source in first..<last { sum &+= sums[source * bands + band] }
                    output[column * bands + band] = UInt8((sum + count / 2) / count)
                }
            }
            sums.update(repeating: 0)
        }
        rowsSummed = 0
        reducedRow += 1
    }
}
