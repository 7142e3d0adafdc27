/// An area reduction of one 8-bit plane in fixed point, for the content check's preview: each
/// output sample is the mean of the source samples under it, each weighted by the part of it
/// covered, so the reduction aliases no worse than a box filter and sharpens nothing.
enum PreviewResampler {
    /// The source samples one output sample of an axis reads, and their weights.
    struct Axis {
        /// How many source samples each output reads (unused ones weigh 0).
        let taps: Int
        /// Each output's first source sample.
        let first: [Int]
        /// `taps` weights per output, summing to `unit`.
        let weights: [UInt16]
        /// What an output's weights sum to.
        let unit: Int
        /// One past the last source sample any output reads.
        let limit: Int

        /// The taps of `outputs` samples, output `i` covering source positions
        /// `origin + i * scale ..< origin + (i + 1) * scale` clipped to `start ..< end` (all in
        /// source samples; `end` at most `length`, the plane's size on this axis), with weights
        /// in units of 1 / `unit`.
        init(outputs: Int, origin: Double, scale: Double, start: Double, end: Double, length: Int, unit: Int) {
            precondition(outputs > 0 && scale > 0 && length > 0, "an axis needs samples")
            let start = max(0, start), end = min(Double(length), max(end, start))
            let taps = Int(scale.rounded(.up)) + 1
            var firsts = [Int](repeating: 0, count: outputs)
            var fixed = [UInt16](repeating: 0, count: outputs * taps)
            var share = [Double](repeating: 0, count: taps)
            for index in 0..<outputs {
                let low = max(start, origin + Double(index) * scale), high = min(end, origin + Double(index + 1) * scale)
                guard high > low else {
                    // Past the picture (a half-covered chroma sample at an edge): the nearest sample.
                    let nearest = max(Int(start.rounded(.down)), min(Int(end.rounded(.up)) - 1, Int(low.rounded(.down))))
                    firsts[index] = min(length - 1, nearest)
                    fixed[index * taps] = UInt16(unit)
                    continue
                }
                let first = min(length - 1, Int(low.rounded(.down))), last = min(length - 1, first + taps - 1, Int(high.rounded(.up)) - 1)
                for sample in first...max(first, last) {
                    share[sample - first] = max(0, min(high, Double(sample + 1)) - max(low, Double(sample))) / (high - low)
                }
                // Each weight is the step between rounded running totals, the last total being the
                // unit: never negative, and summing to the unit exactly however many taps there are
                // (weights rounded one by one drift from it as taps add up, by more than a tap
                // weighs once an output covers twenty-odd samples).
                let lastTap = max(first, last) - first
                var running = 0.0, previous = 0
                for tap in 0...lastTap {
                    running += share[tap]
                    let total = tap == lastTap ? unit : min(unit, Int((running * Double(unit)).rounded()))
                    fixed[index * taps + tap] = UInt16(max(0, total - previous))
                    previous = max(previous, total)
                }
                firsts[index] = first
            }
            self.taps = taps
            self.first = firsts
            self.weights = fixed
            self.unit = unit
            self.limit = min(length, Int(end.rounded(.up)))
        }

        /// The number of outputs.
        var count: Int { first.count }
    }

    /// What vertical weights sum to: 8 bits, so that a column's weighted sum of 8-bit samples
    /// fits 16 bits (twice the lanes of a vector).
    static let verticalUnit = 1 << 8
    /// What horizontal weights sum to: 12 bits, so that the weighted sum of those stays within 32.
    static let horizontalUnit = 1 << 12

    /// Reduces the plane at `source` (`stride` bytes a row, samples `step` bytes apart) to
    /// `horizontal.count` x `vertical.count` samples, output (x, y) going to
    /// `target[placement.origin + x * placement.across + y * placement.down]` (so it can be turned
    /// or mirrored on the way). The axes' units must be `horizontalUnit` and `verticalUnit`.
    static func reduce(_ source: UnsafePointer<UInt8>, stride: Int, step: Int = 1,
                       horizontal: Axis, vertical: Axis,
                       into target: UnsafeMutablePointer<UInt8>, placement: (origin: Int, across: Int, down: Int)) {
        precondition(horizontal.unit == horizontalUnit && vertical.unit == verticalUnit, "the reducer's fixed-point units")
        // The source columns any output reads: the vertical pass sums only those.
        let low = horizontal.first.min()!, high = horizontal.first.max()! + horizontal.taps
        let columns = min(high, horizontal.limit) - low
        // Rows are summed column by column first (a loop the compiler vectorises for planes),
        // then each output sums its columns; the extra zeroed columns keep the unused taps at
        // the right edge inside the buffer.
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: high - low)
        defer { sums.deallocate() }
        sums.initialize(repeating: 0, count: high - low)
        let vTaps = vertical.taps
        horizontal.first.withUnsafeBufferPointer { hFirst in
            horizontal.weights.withUnsafeBufferPointer { hWeights in
                vertical.weights.withUnsafeBufferPointer { vWeights in
                    for output in 0..<vertical.count {
                        sums.update(repeating: 0, count: columns)
                        let firstRow = vertical.first[output]
                        for tap in 0..<vTaps {
                            let weight = vWeights[output * vTaps + tap]
                            if weight == 0 { continue }
                            let row = source + (firstRow + tap) * stride + low * step
                            if step == 1 {
                                for column in 0..<columns { sums[column] &+= weight &* UInt16(row[column]) }
                            } else {
                                for column in 0..<columns { sums[column] &+= weight &* UInt16(row[column * step]) }
                            }
                        }
                        let line = target + placement.origin + output * placement.down, across = placement.across
                        // A constant tap count (and step across) lets the compiler unroll the common reductions.
                        switch (horizontal.taps, across) {
                        case (2, 1): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 2, into: line, across: 1)
                        case (3, 1): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 3, into: line, across: 1)
                        case (4, 1): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 4, into: line, across: 1)
                        // A 256 px thumbnail of a 1024 to 2048 px decode: 6 to 10 taps.
                        case (6, 1): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 6, into: line, across: 1)
                        case (7, 1): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 7, into: line, across: 1)
                        case (8, 1): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 8, into: line, across: 1)
                        case (6, _): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 6, into: line, across: across)
                        case (7, _): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 7, into: line, across: across)
                        case (8, _): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 8, into: line, across: across)
                        case (2, _): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 2, into: line, across: across)
                        case (3, _): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 3, into: line, across: across)
                        case (4, _): sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: 4, into: line, across: across)
                        default: sumColumns(sums, low: low, first: hFirst, weights: hWeights, taps: horizontal.taps, into: line, across: across)
                        }
                    }
                }
            }
        }
    }

    /// One output row: each output's weighted sum of its summed columns, rounded to 8 bits.
    @inline(__always)
    private static func sumColumns(_ sums: UnsafeMutablePointer<UInt16>, low: Int, first: UnsafeBufferPointer<Int>,
                                   weights: UnsafeBufferPointer<UInt16>, taps: Int, into line: UnsafeMutablePointer<UInt8>, across: Int) {
        let shift = UInt32(8 + 12)
        for column in 0..<first.count {
            let summed = sums + (first[column] - low)
            var sum: UInt32 = 1 << (shift - 1)
            for tap in 0..<taps { sum &+= UInt32(weights[column * taps + tap]) &* UInt32(summed[tap]) }
            line[column * across] = UInt8(truncatingIfNeeded: sum >> shift)
        }
    }
}
