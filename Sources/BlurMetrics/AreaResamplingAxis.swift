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

        // Each target's trimmed weights go into one flat scratch array (no array per target: an
        // 18 MP photo's two axes have about 2,800 targets, and their allocations cost more than
        // the arithmetic); `widest` bounds a target's source interval.
        let widest = Int(scale.rounded(.up)) + 2
        var rowStarts = [Int](repeating: 0, count: targetCount)
        var rowCounts = [Int](repeating: 0, count: targetCount)
        var rowWeights = [UInt32](repeating: 0, count: targetCount * widest)
        var taps = 1
        rowWeights.withUnsafeMutableBufferPointer { flat in
            for target in 0..<targetCount {
                let low = Double(target) * scale
                let high = min(Double(target + 1) * scale, Double(sourceCount))
                let first = Int(low.rounded(.down))
                let last = min(sourceCount - 1, Int(high.rounded(.up)) - 1)
                let quantized = flat.baseAddress! + target * widest
                var total = 0
                var largest = 0
                for offset in 0...(last - first) {
                    let index = first + offset
                    let overlap = min(high, Double(index + 1)) - max(low, Double(index))
                    let weight = UInt32(max(0, (overlap / scale * unit).rounded()))
                    quantized[offset] = weight
                    total += Int(weight)
                    // The first of the largest weights, as `max(by:)` finds it.
                    if weight > quantized[largest] { largest = offset }
                }
                // Put the rounding residue on the largest weight so every target sums to exactly `unit`.
                quantized[largest] = UInt32(Int(quantized[largest]) + (1 << fractionBits) - total)
                var lower = 0, upper = last - first
                while upper > lower, quantized[lower] == 0 { lower += 1 }
                while upper > lower, quantized[upper] == 0 { upper -= 1 }
                if lower > 0 {
                    for offset in 0...(upper - lower) { quantized[offset] = quantized[lower + offset] }
                }
                rowStarts[target] = first + lower
                rowCounts[target] = upper - lower + 1
                taps = max(taps, upper - lower + 1)
            }
        }
        self.taps = taps
        var starts = [Int]()
        var weights = [UInt32](repeating: 0, count: targetCount * taps)
        starts.reserveCapacity(targetCount)
        for target in 0..<targetCount {
            // Near the end a window may run past the source: slide it back and pad in front.
            let start = min(rowStarts[target], sourceCount - taps)
            let padding = rowStarts[target] - start
            starts.append(start)
            for offset in 0..<rowCounts[target] {
                weights[target * taps + padding + offset] = rowWeights[target * widest + offset]
            }
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
