/// Box-averages the strips of a PNG or WebP decode by a whole factor into the pixels the content
/// check's preview is made from, so the preview needs no second decode of the photo.
final class PreviewReducer {
    /// The reduced pixels, handed to the preview encoder once every row has arrived.
    let pixels: PreviewPixels
    private let factor: Int
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let bands: Int
    // One reduced row's sums, and how many source rows are in them.
    private var sums: [UInt32]
    private var rowsSummed = 0
    private var reducedRow = 0

    /// The reduced width of a `width`-pixel row at `factor` (a partial block at the end counts).
    static func reducedSide(_ side: Int, factor: Int) -> Int { (side + factor - 1) / factor }

    /// The bytes a reduction of `width` x `height` with `bands` samples holds.
    static func estimatedBytes(width: Int, height: Int, bands: Int, factor: Int) -> Int {
        let reducedWidth = reducedSide(width, factor: factor)
        return reducedWidth * reducedSide(height, factor: factor) * bands + reducedWidth * bands * 4
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
        sums = [UInt32](repeating: 0, count: reducedWidth * bands)
    }

    /// Adds `count` decoded rows, `rowStride` bytes apart.
    func append(rows: UnsafePointer<UInt8>, count: Int, rowStride: Int) {
        let factor = factor, width = sourceWidth, bands = bands, reducedWidth = pixels.width
        for row in 0..<count {
            let source = rows + row * rowStride
            sums.withUnsafeMutableBufferPointer { sums in
                // One pass along the row; each block's samples are summed in registers, by band.
                var sample = 0
                for column in 0..<reducedWidth {
                    let count = min(factor, width - column * factor), base = column * bands
                    var first: UInt32 = 0, second: UInt32 = 0, third: UInt32 = 0, fourth: UInt32 = 0
                    switch bands {
                    case 1:
                        for _ in 0..<count { first &+= UInt32(source[sample]); sample += 1 }
                    case 2:
                        for _ in 0..<count {
                            first &+= UInt32(source[sample]); second &+= UInt32(source[sample + 1]); sample += 2
                        }
                    case 3:
                        for _ in 0..<count {
                            first &+= UInt32(source[sample]); second &+= UInt32(source[sample + 1]); third &+= UInt32(source[sample + 2]); sample += 3
                        }
                    default:
                        for _ in 0..<count {
                            first &+= UInt32(source[sample]); second &+= UInt32(source[sample + 1])
                            third &+= UInt32(source[sample + 2]); fourth &+= UInt32(source[sample + 3]); sample += 4
                        }
                    }
                    sums[base] &+= first
                    if bands > 1 { sums[base + 1] &+= second }
                    if bands > 2 { sums[base + 2] &+= third }
                    if bands > 3 { sums[base + 3] &+= fourth }
                }
            }
            rowsSummed += 1
            if rowsSummed == factor || reducedRow * factor + rowsSummed == sourceHeight { emitRow() }
        }
    }

    /// Writes the rounded means of the summed rows as one reduced row and starts the next.
    private func emitRow() {
        let factor = factor, width = sourceWidth, bands = bands, reducedWidth = pixels.width
        let output = pixels.samples + reducedRow * reducedWidth * bands
        sums.withUnsafeMutableBufferPointer { sums in
            for column in 0..<reducedWidth {
                let count = UInt32(rowsSummed * (min((column + 1) * factor, width) - column * factor))
                for band in 0..<bands {
                    let index = column * bands + band
                    output[index] = UInt8((sums[index] + count / 2) / count)
                    sums[index] = 0
                }
            }
        }
        rowsSummed = 0
        reducedRow += 1
    }
}
