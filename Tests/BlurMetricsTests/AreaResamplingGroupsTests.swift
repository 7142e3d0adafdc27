import TestFixtures
import Testing
@testable import BlurMetrics

/// The byte-shuffle resampling of a row against the same sums taken one tap at a time.
@Suite("The grouped horizontal resampling")
struct AreaResamplingGroupsTests {
    /// The contract's sum for target `j` of `group`, one tap at a time.
    private func scalar(_ row: [UInt8], base: Int, offsets: ArraySlice<UInt8>, weights: ArraySlice<Int16>, target j: Int) -> UInt16 {
        var sum: Int32 = 0
        for tap in 0..<4 {
            let offset = offsets[offsets.startIndex + 8 * j + 2 * tap]
            if offset < 16 { sum += Int32(row[base + Int(offset)]) * Int32(weights[weights.startIndex + 4 * j + tap]) }
        }
        return UInt16((sum + 32) >> 6)
    }

    @Test("random groups, padding taps, the brightest row and a group ending at the row's end give the scalar sums")
    func matchesScalar() {
        var generator = SplitMix64(state: 48)
        let width = 64
        for trial in 0..<200 {
            // Trial 0 is all 255 with every weight on one tap (the largest result); the rest random.
            let row = (0..<width).map { _ in trial == 0 ? 255 : UInt8.random(in: 0...255, using: &generator) }
            var bases: [Int32] = [], offsets: [UInt8] = [], weights: [Int16] = []
            for group in 0..<8 {
                // The last group's 16 bytes end exactly at the row's end.
                let base = group == 7 ? width - 16 : Int.random(in: 0...(width - 16), using: &generator)
                bases.append(Int32(base))
                for _ in 0..<4 {
                    let taps = trial == 0 ? 1 : Int.random(in: 1...4, using: &generator)
                    let first = Int.random(in: 0...(16 - taps), using: &generator)
                    // Weights of a target sum to 1 << 14, as the axis makes them.
                    var left = 1 << 14
                    for tap in 0..<4 {
                        if tap < taps {
                            let weight = tap == taps - 1 ? left : Int.random(in: 0...left, using: &generator)
                            left -= weight
                            offsets += [UInt8(first + tap), 0x80]
                            weights.append(Int16(min(weight, Int(Int16.max))))
                        } else {
                            offsets += [0x80, 0x80]
                            weights.append(Int16.random(in: 0...Int16.max, using: &generator))
                        }
                    }
                }
            }
            var output = [UInt16](repeating: 0, count: 32)
            row.withUnsafeBufferPointer { row in
                AreaResamplingGroups.resample(row.baseAddress!, bases: bases, offsets: offsets, weights: weights, groups: 8, into: &output)
            }
            for group in 0..<8 {
                for j in 0..<4 {
                    let expected = scalar(row, base: Int(bases[group]), offsets: offsets[(32 * group)..<(32 * group + 32)],
                                          weights: weights[(16 * group)..<(16 * group + 16)], target: j)
                    #expect(output[4 * group + j] == expected, "trial \(trial), group \(group), target \(j)")
                }
            }
        }
    }
}
