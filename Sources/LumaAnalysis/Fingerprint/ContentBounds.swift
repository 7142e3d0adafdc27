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
    /// Flat rows or columns inside the picture (a dark line, a sky) up to this many are bridged
    /// (on the quarter plane the fingerprint reads, 16 analysis-plane lines).
    static let bridgedGap = 4

    /// The bounds of `plane`'s picture.
    init(of plane: LumaPlane) {
        // A line's sum of squares fits 32 bits up to 66,051 samples (255² each): then the sums
        // take four lanes a vector instead of two; they are the same whole numbers either way.
        let (rows, columns) = max(plane.width, plane.height) <= 66_051
            ? Self.bounds(of: plane, summingIn: UInt32.self)
            : Self.bounds(of: plane, summingIn: UInt64.self)
        self.rows = rows
        self.columns = columns
    }

    /// The rows and columns kept, from sums of samples and of their squares in `Sum`, which must
    /// hold a line's sum of squares.
    static func bounds<Sum: FixedWidthInteger & UnsignedInteger>(of plane: LumaPlane, summingIn _: Sum.Type) -> (Range<Int>, Range<Int>) {
        let width = plane.width
        return plane.pixels.withUnsafeBufferPointer { pixels -> (Range<Int>, Range<Int>) in
            let rows = Self.longestRun(count: plane.height) { y in
                var sum: Sum = 0, squares: Sum = 0
                for x in 0..<width {
                    let sample = Sum(pixels[y &* width &+ x])
                    sum &+= sample
                    squares &+= sample &* sample
                }
                return Self.varies(sum: Int(sum), squares: Int(squares), count: width)
            }
            // Column sums gathered row by row: a column walk would touch a cache line per sample.
            var sums = [Sum](repeating: 0, count: width), squares = [Sum](repeating: 0, count: width)
            sums.withUnsafeMutableBufferPointer { sums in
                squares.withUnsafeMutableBufferPointer { squares in
                    for y in rows {
                        for x in 0..<width {
                            let sample = Sum(pixels[y &* width &+ x])
                            sums[x] &+= sample
                            squares[x] &+= sample &* sample
                        }
                    }
                }
            }
            let columns = Self.longestRun(count: width) { x in Self.varies(sum: Int(sums[x]), squares: Int(squares[x]), count: rows.count) }
            return (rows, columns)
        }
    }

    /// Whether `count` samples with this sum and sum of squares deviate by more than `flatDeviation`.
    private static func varies(sum: Int, squares: Int, count: Int) -> Bool {
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
