import BlurMetrics

/// The 256-bin histogram of an 8-bit luma plane: what every exposure figure is read from.
public struct LumaHistogram: Sendable, Equatable {
    /// Samples per luma value, index 0 to 255.
    public let counts: [Int]
    /// The number of samples.
    public let total: Int

    /// Counts the samples of evenly spaced rows of `plane`, every row up to `sampleBudget` samples
    /// and every second, third... row above it: a 1024 px plane still gives about half a million
    /// samples, so a percentile moves by a luma level at most, at a third of the cost of counting
    /// them all (the exposure stage's budget is 0.5 ms).
    public init(_ plane: LumaPlane) {
        self.init(plane, rowStep: Self.rowStep(width: plane.width, height: plane.height))
    }

    /// The most samples `init(_:)` counts before it skips rows.
    public static let sampleBudget = 1 << 19

    /// The row step `init(_:)` takes on a `width` x `height` plane.
    public static func rowStep(width: Int, height: Int) -> Int {
        max(1, (width * height + sampleBudget - 1) / sampleBudget)
    }

    /// Counts the samples of every `rowStep`-th row of `plane`, starting with the first.
    public init(_ plane: LumaPlane, rowStep: Int) {
        precondition(rowStep >= 1, "a histogram counts every row or a regular subset of them")
        // Four partial histograms break the store-to-load dependency on runs of equal values; an
        // 8-byte load feeds them twice per step instead of eight one-byte loads.
        var partial = [UInt32](repeating: 0, count: 4 * 256)
        var counted = 0
        let width = plane.width
        plane.pixels.withUnsafeBytes { samples in
            partial.withUnsafeMutableBufferPointer { bins in
                var rowStart = 0
                while rowStart < samples.count {
                    var column = 0
                    while column + 8 <= width {
                        let word = samples.loadUnaligned(fromByteOffset: rowStart &+ column, as: UInt64.self)
                        bins[Int(truncatingIfNeeded: word & 0xFF)] &+= 1
                        bins[256 &+ Int(truncatingIfNeeded: (word >> 8) & 0xFF)] &+= 1
                        bins[512 &+ Int(truncatingIfNeeded: (word >> 16) & 0xFF)] &+= 1
                        bins[768 &+ Int(truncatingIfNeeded: (word >> 24) & 0xFF)] &+= 1
                        bins[Int(truncatingIfNeeded: (word >> 32) & 0xFF)] &+= 1
                        bins[256 &+ Int(truncatingIfNeeded: (word >> 40) & 0xFF)] &+= 1
                        bins[512 &+ Int(truncatingIfNeeded: (word >> 48) & 0xFF)] &+= 1
                        bins[768 &+ Int(truncatingIfNeeded: word >> 56)] &+= 1
                        column &+= 8
                    }
                    while column < width {
                        bins[Int(samples[rowStart &+ column])] &+= 1
                        column &+= 1
                    }
                    counted &+= width
                    rowStart &+= width &* rowStep
                }
            }
        }
        counts = (0..<256).map { value in Int(partial[value]) + Int(partial[256 + value]) + Int(partial[512 + value]) + Int(partial[768 + value]) }
        total = counted
    }

    /// A histogram from `counts` (256 values), for tests and tools.
    public init(counts: [Int]) {
        precondition(counts.count == 256, "a luma histogram has 256 bins")
        self.counts = counts
        total = counts.reduce(0, +)
    }

    /// The mean luma.
    public var mean: Double {
        guard total > 0 else { return 0 }
        var sum = 0
        for value in 0..<256 { sum += value * counts[value] }
        return Double(sum) / Double(total)
    }

    /// The smallest luma value at or below which at least `percentile` percent of the samples lie.
    public func percentile(_ percentile: Double) -> Int {
        guard total > 0 else { return 0 }
        let needed = max(1, Int((percentile / 100 * Double(total)).rounded(.up)))
        var cumulative = 0
        for value in 0..<256 {
            cumulative += counts[value]
            if cumulative >= needed { return value }
        }
        return 255
    }

    /// The share of samples whose luma is at most `value`.
    public func share(atMost value: Int) -> Double {
        guard total > 0, value >= 0 else { return 0 }
        return Double(counts[0...min(value, 255)].reduce(0, +)) / Double(total)
    }

    /// The share of samples whose luma is at least `value`.
    public func share(atLeast value: Int) -> Double {
        guard total > 0, value <= 255 else { return 0 }
        return Double(counts[max(value, 0)...255].reduce(0, +)) / Double(total)
    }
}
