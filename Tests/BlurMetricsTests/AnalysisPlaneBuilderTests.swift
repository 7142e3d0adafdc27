import TestFixtures
import Testing
@testable import BlurMetrics

/// Feeds `pixels` (interleaved, `bands` per pixel) to a builder in strips of `strip` rows.
func buildPlane(width: Int, height: Int, bands: Int, pixels: [UInt8], scale: AnalysisScale, strip: Int) -> LumaPlane {
    let builder = AnalysisPlaneBuilder(sourceWidth: width, sourceHeight: height, bands: bands, scale: scale)
    pixels.withUnsafeBufferPointer { buffer in
        var row = 0
        while row < height {
            let count = min(strip, height - row)
            builder.append(rows: buffer.baseAddress! + row * width * bands, count: count, rowStride: width * bands)
            row += count
        }
    }
    return builder.finish()
}

@Suite("Analysis plane", .timeLimit(.minutes(10)))
struct AnalysisPlaneBuilderTests {
    @Test("the analysis size keeps the aspect ratio and puts the shortest side on the target")
    func analysisSize() {
        let scale = AnalysisScale.shortestSide(1024)
        #expect(scale.analysisSize(width: 3213, height: 5712) == (1024, 1820))
        #expect(scale.analysisSize(width: 5712, height: 3213) == (1820, 1024))
        #expect(scale.analysisSize(width: 800, height: 600) == (800, 600))
        #expect(AnalysisScale.native.analysisSize(width: 4000, height: 3000) == (4000, 3000))
    }

    @Test("parses native and sizes, rejects nonsense")
    func parsing() {
        #expect(AnalysisScale(argument: "native") == .native)
        #expect(AnalysisScale(argument: "1024") == .shortestSide(1024))
        #expect(AnalysisScale(argument: "0") == nil)
        #expect(AnalysisScale(argument: "big") == nil)
    }

    @Test("area weights of every target sum to one", arguments: [(1607, 1024), (4032, 1024), (1025, 1024), (10, 3), (7, 7)])
    func weightsSumToOne(counts: (Int, Int)) {
        let axis = AreaResamplingAxis(sourceCount: counts.0, targetCount: counts.1, fractionBits: 14)
        for target in 0..<axis.targetCount {
            let sum = axis.weights[(target * axis.taps)..<((target + 1) * axis.taps)].reduce(0, +)
            #expect(sum == 1 << 14)
            #expect(axis.starts[target] + axis.taps <= axis.sourceCount)
        }
    }

    @Test("the weights are the per-target construction's: each interval's overlaps rounded, the residue on its first largest weight, zero ends trimmed",
          arguments: [(1205, 1024), (2142, 1820), (1607, 1024), (4032, 1024), (1025, 1024), (2048, 1024), (3000, 1024), (10, 3), (7, 7), (5, 1), (1, 1)])
    func weightsMatchPerTargetConstruction(counts: (Int, Int)) {
        for bits in [12, 14] {
            let axis = AreaResamplingAxis(sourceCount: counts.0, targetCount: counts.1, fractionBits: bits)
            let reference = Self.referenceWeights(sourceCount: counts.0, targetCount: counts.1, fractionBits: bits)
            #expect(axis.taps == reference.taps)
            #expect(axis.starts == reference.starts)
            #expect(axis.weights == reference.weights)
        }
    }

    @Test("the plane is the fixed-point area resampling computed one sample at a time, whichever targets go through the grouped kernel",
          arguments: [(1205, 37, 1024, 31), (1607, 40, 1024, 25), (300, 20, 120, 9), (400, 9, 100, 3), (173, 11, 50, 5), (97, 5, 96, 5), (35, 4, 8, 2)])
    func planeMatchesScalarResampling(sizes: (Int, Int, Int, Int)) {
        let (width, height, targetWidth, targetHeight) = sizes
        var generator = SplitMix64(state: UInt64(width * 7919 + height))
        let pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let builder = AnalysisPlaneBuilder(sourceWidth: width, sourceHeight: height, bands: 1, targetWidth: targetWidth, targetHeight: targetHeight)
        pixels.withUnsafeBufferPointer { builder.append(rows: $0.baseAddress!, count: height, rowStride: width) }
        let horizontal = AreaResamplingAxis(sourceCount: width, targetCount: targetWidth, fractionBits: 14)
        let vertical = AreaResamplingAxis(sourceCount: height, targetCount: targetHeight, fractionBits: 12)
        let rows = (0..<height).map { y in
            (0..<targetWidth).map { x in
                let sum = (0..<horizontal.taps).reduce(UInt32(0)) { sum, tap in
                    sum + UInt32(pixels[y * width + horizontal.starts[x] + tap]) * horizontal.weights[x * horizontal.taps + tap]
                }
                return (sum + 32) >> 6
            }
        }
        var expected = [UInt8]()
        for y in 0..<targetHeight {
            for x in 0..<targetWidth {
                let sum = (0..<vertical.taps).reduce(UInt32(0)) { sum, tap in
                    sum + rows[vertical.starts[y] + tap][x] * vertical.weights[y * vertical.taps + tap]
                }
                expected.append(UInt8((sum + (1 << 19)) >> 20))
            }
        }
        #expect(builder.finish().pixels == expected)
    }

    /// The weights as `AreaResamplingAxis` built them until 2026-11-28, one array per target.
    static func referenceWeights(sourceCount: Int, targetCount: Int, fractionBits: Int) -> (taps: Int, starts: [Int], weights: [UInt32]) {
        let scale = Double(sourceCount) / Double(targetCount)
        let unit = Double(1 << fractionBits)
        var rows: [(start: Int, weights: [UInt32])] = []
        for target in 0..<targetCount {
            let low = Double(target) * scale
            let high = min(Double(target + 1) * scale, Double(sourceCount))
            let first = Int(low.rounded(.down))
            let last = min(sourceCount - 1, Int(high.rounded(.up)) - 1)
            var quantized = (first...last).map { index -> UInt32 in
                let overlap = min(high, Double(index + 1)) - max(low, Double(index))
                return UInt32(max(0, (overlap / scale * unit).rounded()))
            }
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
        var starts = [Int](), weights = [UInt32]()
        for row in rows {
            let start = min(row.start, sourceCount - taps)
            let padding = row.start - start
            starts.append(start)
            weights.append(contentsOf: repeatElement(0, count: padding))
            weights.append(contentsOf: row.weights)
            weights.append(contentsOf: repeatElement(0, count: taps - padding - row.weights.count))
        }
        return (taps, starts, weights)
    }

    @Test("halving averages pixel pairs with rounding")
    func halving() {
        // Rows: 0 10 20 30 / 2 12 22 32 -> one row of two pixels: mean(0,10,2,12)=6, mean(20,30,22,32)=26.
        let pixels: [UInt8] = [0, 10, 20, 30, 2, 12, 22, 32]
        let plane = buildPlane(width: 4, height: 2, bands: 1, pixels: pixels, scale: .shortestSide(1), strip: 1)
        #expect(plane.width == 2 && plane.height == 1)
        #expect(plane.pixels == [6, 26])
    }

    @Test("a flat image stays exactly flat at any scale")
    func flatStaysFlat() {
        let width = 1607, height = 2856
        let pixels = [UInt8](repeating: 137, count: width * height)
        let plane = buildPlane(width: width, height: height, bands: 1, pixels: pixels, scale: .default, strip: 64)
        #expect(plane.width == 1024 && plane.height == 1820)
        #expect(plane.pixels.allSatisfy { $0 == 137 })
    }

    @Test("the result does not depend on how rows are split into strips")
    func stripIndependence() {
        var generator = SplitMix64(state: 42)
        let width = 300, height = 211, bands = 3
        let pixels = (0..<(width * height * bands)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = buildPlane(width: width, height: height, bands: bands, pixels: pixels, scale: .shortestSide(128), strip: height)
        for strip in [1, 7, 64] {
            #expect(buildPlane(width: width, height: height, bands: bands, pixels: pixels, scale: .shortestSide(128), strip: strip) == whole)
        }
        #expect(whole.width == 182 && whole.height == 128)
    }

    @Test("bands measured while the plane is built wait for their rows and equal the finished plane's",
          arguments: [(AnalysisScale.shortestSide(200), 16), (.native, 16), (.shortestSide(200), 48), (.native, 300)])
    func bandsWhileBuilding(scale: AnalysisScale, tile: Int) {
        var generator = SplitMix64(state: 7)
        let width = 400, height = 290, count = 8
        let pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let builder = AnalysisPlaneBuilder(sourceWidth: width, sourceHeight: height, bands: 1, scale: scale)
        var early: [OrientedDetail.TileBand?] = Array(repeating: nil, count: count)
        pixels.withUnsafeBufferPointer { buffer in
            var row = 0
            while row < height {
                let rows = min(23, height - row)
                builder.append(rows: buffer.baseAddress! + row * width, count: rows, rowStride: width)
                row += rows
                if row < height {
                    // The last band reads the plane's last rows, which only the last strip writes.
                    #expect(builder.band(count - 1, of: count, tileSize: tile) == nil || builder.finishedRows == builder.targetHeight)
                }
                for index in 0..<count where early[index] == nil {
                    early[index] = builder.band(index, of: count, tileSize: tile)
                }
            }
        }
        let plane = builder.finish()
        let whole = OrientedDetail(plane: plane, tileSize: tile)
        let measured = early.compactMap { $0 }
        #expect(measured.count == count)
        #expect(OrientedDetail(plane: plane, tileSize: tile, bands: measured, noiseSigma: whole.noiseSigma) == whole)
    }

    @Test("native scale is the exact grey conversion of every pixel")
    func nativeIsExact() {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 7, 7, 7]
        let plane = buildPlane(width: 2, height: 2, bands: 3, pixels: pixels, scale: .native, strip: 1)
        #expect(plane.pixels == [76, 150, 29, 7])
    }
}
