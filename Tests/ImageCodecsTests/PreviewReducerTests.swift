@testable import ImageCodecs
import Testing

/// The PNG and WebP preview's box reduction against the plain definition: each reduced sample is
/// the rounded mean of its block, partial blocks at the right and bottom edges included.
@Suite("PreviewReducer")
struct PreviewReducerTests {
    /// The rounded mean of every `factor` x `factor` block of `samples`, computed directly.
    private static func reference(_ samples: [UInt8], width: Int, height: Int, bands: Int, factor: Int) -> [UInt8] {
        let reducedWidth = (width + factor - 1) / factor, reducedHeight = (height + factor - 1) / factor
        var output = [UInt8](repeating: 0, count: reducedWidth * reducedHeight * bands)
        for y in 0..<reducedHeight {
            for x in 0..<reducedWidth {
                for band in 0..<bands {
                    var sum = 0, count = 0
                    for sy in (y * factor)..<min((y + 1) * factor, height) {
                        for sx in (x * factor)..<min((x + 1) * factor, width) {
                            sum += Int(samples[(sy * width + sx) * bands + band])
                            count += 1
                        }
                    }
                    output[(y * reducedWidth + x) * bands + band] = UInt8((sum + count / 2) / count)
                }
            }
        }
        return output
    }

    /// `samples` reduced by the reducer, fed in strips of `strip` rows.
    private static func reduced(_ samples: [UInt8], width: Int, height: Int, bands: Int, factor: Int, strip: Int) -> [UInt8] {
        let reducer = PreviewReducer(width: width, height: height, bands: bands, factor: factor)
        samples.withUnsafeBufferPointer { buffer in
            var row = 0
            while row < height {
                let count = min(strip, height - row)
                reducer.append(rows: buffer.baseAddress! + row * width * bands, count: count, rowStride: width * bands)
                row += count
            }
        }
        let pixels = reducer.pixels
        return Array(UnsafeBufferPointer(start: pixels.samples, count: pixels.width * pixels.height * bands))
    }

    @Test("every sample is its block's rounded mean, on noise, extremes and edge blocks", arguments: [
        (width: 37, height: 23, bands: 3, factor: 2),
        (width: 64, height: 48, bands: 4, factor: 3),
        (width: 101, height: 7, bands: 1, factor: 5),
        (width: 50, height: 50, bands: 2, factor: 16),
        (width: 300, height: 260, bands: 3, factor: 255),
    ])
    func matchesTheDefinition(width: Int, height: Int, bands: Int, factor: Int) {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<(width * height * bands)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // All-white blocks put the sums at their largest, where a rounded-down reciprocal would
        // be one short; a ramp puts every remainder in play.
        let white = [UInt8](repeating: 255, count: width * height * bands)
        let ramp = (0..<(width * height * bands)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for samples in [noise, white, ramp] {
            let expected = Self.reference(samples, width: width, height: height, bands: bands, factor: factor)
            let actual = Self.reduced(samples, width: width, height: height, bands: bands, factor: factor, strip: 5)
            #expect(actual == expected)
        }
    }

    @Test("the reciprocal gives the exact quotient for every dividend a block can sum to")
    func reciprocalIsExact() {
        for count in [1, 2, 3, 7, 9, 255, 256, 3 * 255, 255 * 255] {
            let reciprocal = PreviewReducer.reciprocal(of: UInt64(count))
            var wrong = 0
            var boundaries: [Int] = []
            for multiple in 250...256 {
                let below: Int = multiple * count - 1
                let rounded: Int = below + (count + 1) / 2
                boundaries += [below, rounded].filter { $0 < 256 * count }
            }
            for dividend in Array(stride(from: 0, to: 256 * count, by: max(1, count / 64))) + boundaries {
                if PreviewReducer.quotient(UInt64(dividend), reciprocal: reciprocal) != UInt64(dividend / count) { wrong += 1 }
            }
            #expect(wrong == 0, "count \(count)")
        }
    }
}
