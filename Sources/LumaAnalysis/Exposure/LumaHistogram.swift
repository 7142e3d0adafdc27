import BlurMetrics

/// The 256-bin histogram of an 8-bit luma plane: what every exposure figure is read from.
public struct LumaHistogram: Sendable, Equatable {
    /// Samples per luma value, index 0 to 255.
    public let counts: [Int]
    /// The number of samples.
    public let total: Int

    /// Counts the samples of `plane`.
    public init(_ plane: LumaPlane) {
        // Four partial histograms break the store-to-load dependency on runs of equal values.
        var partial = [UInt32](repeating: 0, count: 4 * 256)
        plane.pixels.withUnsafeBufferPointer { samples in
            partial.withUnsafeMutableBufferPointer { bins in
                let count = samples.count
                var index = 0
                while index + 4 <= count {
                    bins[Int(samples[index])] &+= 1
                    bins[256 &+ Int(samples[index &+ 1])] &+= 1
                    bins[512 &+ Int(samples[index &+ 2])] &+= 1
                    bins[768 &+ Int(samples[index &+ 3])] &+= 1
                    index &+= 4
                }
                while index < count {
                    bins[Int(samples[index])] &+= 1
                    index &+= 1
                }
            }
        }
        counts = (0..<256).map { value in Int(partial[value]) + Int(partial[256 + value]) + Int(partial[512 + value]) + Int(partial[768 + value]) }
        total = plane.pixels.count
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
