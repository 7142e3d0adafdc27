import BlurMetrics

/// The part of a plane that holds the picture: the longest run of rows, then of columns, whose
/// samples vary, so a screenshot's flat bars or a border added around a photo are left out.
struct ContentBounds: Equatable {
    /// The rows kept.
    let rows: Range<Int>
    /// The columns kept.
    let columns: Range<Int>

    /// A row or column whose standard deviation is at most this is flat (a bar or a border).
    static let flatDeviation = 6.0
    /// Flat rows or columns inside the picture (a dark line, a sky) up to this many are bridged.
    static let bridgedGap = 4

    /// The bounds of `plane`'s picture.
    init(of plane: LumaPlane) {
        let width = plane.width
        let rows = plane.pixels.withUnsafeBufferPointer { pixels in
            Self.longestRun(count: plane.height) { y in
                Self.varies(count: width) { Int(pixels[y * width + $0]) }
            }
        }
        let columns = plane.pixels.withUnsafeBufferPointer { pixels in
            Self.longestRun(count: width) { x in
                Self.varies(count: rows.count) { Int(pixels[(rows.lowerBound + $0) * width + x]) }
            }
        }
        self.rows = rows
        self.columns = columns
    }

    /// Whether the `count` values `value` gives have a population standard deviation above `flatDeviation`.
    private static func varies(count: Int, _ value: (Int) -> Int) -> Bool {
        var sum = 0, squares = 0
        for index in 0..<count {
            let sample = value(index)
            sum &+= sample
            squares &+= sample &* sample
        }
        let mean = Double(sum) / Double(count)
        return Double(squares) / Double(count) - mean * mean > flatDeviation * flatDeviation
    }

    /// The longest run of lines for which `isActive` holds, bridging gaps of up to `bridgedGap`
    /// lines (first on ties); every line when none is active.
    private static func longestRun(count: Int, isActive: (Int) -> Bool) -> Range<Int> {
        var best: Range<Int>?
        var start: Int?
        var lastActive = -1
        for line in 0..<count where isActive(line) {
            if let runStart = start, line - lastActive - 1 <= bridgedGap {
                start = runStart
            } else {
                if let runStart = start, best.map({ lastActive + 1 - runStart > $0.count }) ?? true {
                    best = runStart..<(lastActive + 1)
                }
                start = line
            }
            lastActive = line
        }
        if let runStart = start, best.map({ lastActive + 1 - runStart > $0.count }) ?? true {
            best = runStart..<(lastActive + 1)
        }
        return best ?? 0..<count
    }
}
