/// Fixed-point area-averaging (box) weights for shrinking one axis from `sourceCount` to
/// `targetCount` samples: each target sample is the mean of the source interval it covers.
///
/// Weights for each target sum to exactly `1 << fractionBits`, so the result is deterministic and
/// independent of floating-point rounding on any machine.
public struct AreaResamplingAxis: Sendable {
    /// Samples in.
    public let sourceCount: Int
    /// Samples out; at most `sourceCount`.
    public let targetCount: Int
    /// Weight scale: weights of one target sum to `1 << fractionBits`.
    public let fractionBits: Int
    /// Taps per target (the widest source interval); narrower ones are padded with zero weights.
    public let taps: Int
    /// First source index of each target; `starts[t] + taps <= sourceCount`.
    public let starts: [Int]
    /// `targetCount * taps` weights, target after target.
    public let weights: [UInt32]

    /// Builds the weights for shrinking `sourceCount` samples to `targetCount`.
    public init(sourceCount: Int, targetCount: Int, fractionBits: Int) {
        precondition(targetCount >= 1 && targetCount <= sourceCount, "area resampling only shrinks")
        self.sourceCount = sourceCount
        self.targetCount = targetCount
        self.fractionBits = fractionBits
        let scale = Double(sourceCount) / Double(targetCount)
        let unit = Double(1 << fractionBits)

        var rows: [(start: Int, weights: [UInt32])] = []
        rows.reserveCapacity(targetCount)
        for target in 0..<targetCount {
            let low = Double(target) * scale
            let high = min(Double(target + 1) * scale, Double(sourceCount))
            let first = Int(low.rounded(.down))
            let last = min(sourceCount - 1, Int(high.rounded(.up)) - 1)
            var quantized = (first...last).map { index -> UInt32 in
                let overlap = min(high, Double(index + 1)) - max(low, Double(index))
                return UInt32(max(0, (overlap / scale * unit).rounded()))
            }
            // Put the rounding residue on the largest weight so every target sums to exactly `unit`.
            let total = quantized.reduce(0, +)
            let largest = quantized.indices.max { quantized[$0] < quantized[$1] }!
            quantized[largest] = UInt32(Int(quantized[largest]) + (1 << fractionBits) - Int(total))
            var start = first
            while quantized.count > 1, quantized.first == 0 {
                quantized.removeFirst()
                start += 1
            }
            while quantized.count > 1, quantized.last == 0 {
                quantized.removeLast()
            }
            rows.append((start, quantized))
        }
        let taps = rows.map(\.weights.count).max() ?? 1
        self.taps = taps
        var starts = [Int]()
        var weights = [UInt32]()
        starts.reserveCapacity(targetCount)
        weights.reserveCapacity(targetCount * taps)
        for row in rows {
            // Near the end a window may run past the source: slide it back and pad in front.
            let start = min(row.start, sourceCount - taps)
            let padding = row.start - start
            starts.append(start)
            weights.append(contentsOf: repeatElement(0, count: padding))
            weights.append(contentsOf: row.weights)
            weights.append(contentsOf: repeatElement(0, count: taps - padding - row.weights.count))
        }
        self.starts = starts
        self.weights = weights
    }

    /// The last source index with a non-zero weight for `target`.
    public func lastSource(of target: Int) -> Int {
        var tap = taps - 1
        while tap > 0, weights[target * taps + tap] == 0 { tap -= 1 }
        return starts[target] + tap
    }
}
