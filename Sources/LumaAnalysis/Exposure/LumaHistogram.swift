import BlurMetrics

/// The 256-bin histogram of an 8-bit luma plane: what every exposure figure is read from.
public struct LumaHistogram: Sendable, Equatable {
    /// Samples per luma value, index 0 to 255.
    public let counts: [Int]
    /// The number of samples.
    public let total: Int

    /// Counts every sample of `plane`. Skipping rows would alias: a pattern with the period of the
    /// step (the gateway's grid of 1 px lines every 4 px, read on every 4th row of a 2048x1024
    /// plane) is then counted as its lines alone. Counting them all costs about 0.3 ns a sample
    /// (0.55 ms on a 1024x1820 plane, `timings_ms.exposure`, release build).
    public init(_ plane: LumaPlane) {
        // Four partial histograms break the store-to-load dependency on runs of equal values; an
        // 8-byte load feeds them twice per step instead of eight one-byte loads. The rows are
        // contiguous, so the plane is one run of samples.
        var partial = [UInt32](repeating: 0, count: 4 * 256)
        let count = plane.width * plane.height
        plane.pixels.withUnsafeBytes { samples in
            partial.withUnsafeMutableBufferPointer { bins in
                let end = min(count, samples.count)
                var index = 0
                while index + 8 <= end {
                    let word = samples.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    bins[Int(truncatingIfNeeded: word & 0xFF)] &+= 1
                    bins[256 &+ Int(truncatingIfNeeded: (word >> 8) & 0xFF)] &+= 1
                    bins[512 &+ Int(truncatingIfNeeded: (word >> 16) & 0xFF)] &+= 1
                    bins[768 &+ Int(truncatingIfNeeded: (word >> 24) & 0xFF)] &+= 1
                    bins[Int(truncatingIfNeeded: (word >> 32) & 0xFF)] &+= 1
                    bins[256 &+ Int(truncatingIfNeeded: (word >> 40) & 0xFF)] &+= 1
                    bins[512 &+ Int(truncatingIfNeeded: (word >> 48) & 0xFF)] &+= 1
                    bins[768 &+ Int(truncatingIfNeeded: word >> 56)] &+= 1
                    index &+= 8
                }
                while index < end {
                    bins[Int(samples[index])] &+= 1
                    index &+= 1
                }
            }
        }
        counts = (0..<256).map { value in Int(partial[value]) + Int(partial[256 + value]) + Int(partial[512 + value]) + Int(partial[768 + value]) }
        total = counts.reduce(0, +)
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
