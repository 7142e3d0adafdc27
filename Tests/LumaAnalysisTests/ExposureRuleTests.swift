import BlurMetrics
import Foundation
import LumaAnalysis
import Testing

/// A `width` x `height` plane whose samples cycle through `levels` (a scene of those values).
private func plane(width: Int = 64, height: Int = 48, levels: [UInt8]) -> LumaPlane {
    LumaPlane(width: width, height: height, pixels: (0..<(width * height)).map { levels[($0 * 7 + $0 / width) % levels.count] })
}

@Suite("Exposure: the histogram figures and the rule")
struct ExposureRuleTests {
    @Test("percentiles, mean and shares read off the histogram exactly")
    func histogramFigures() {
        var counts = [Int](repeating: 0, count: 256)
        counts[10] = 50
        counts[100] = 45
        counts[255] = 5
        let histogram = LumaHistogram(counts: counts)
        #expect(histogram.total == 100)
        #expect(histogram.percentile(1) == 10)
        #expect(histogram.percentile(50) == 10)
        #expect(histogram.percentile(51) == 100)
        #expect(histogram.percentile(95) == 100)
        #expect(histogram.percentile(96) == 255)
        let expectedMean: Double = (500 + 4500 + 1275) / 100.0
        #expect(histogram.mean == expectedMean)
        #expect(histogram.share(atMost: 16) == 0.5)
        #expect(histogram.share(atLeast: 250) == 0.05)
    }

    @Test("the plane's histogram counts every sample of the rows it reads, the 8-byte loop and its tail alike")
    func planeHistogram() {
        let width = 17, height = 59
        let samples: [UInt8] = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let plane = LumaPlane(width: width, height: height, pixels: samples)
        for step in [1, 2, 3] {
            var expected = [Int](repeating: 0, count: 256)
            for row in stride(from: 0, to: height, by: step) {
                for sample in samples[(row * width)..<((row + 1) * width)] { expected[Int(sample)] += 1 }
            }
            let histogram = LumaHistogram(plane, rowStep: step)
            #expect(histogram.counts == expected, "row step \(step)")
            #expect(histogram.total == expected.reduce(0, +))
        }
        #expect(LumaHistogram(plane) == LumaHistogram(plane, rowStep: 1), "a small plane is counted whole")
        #expect(LumaHistogram.rowStep(width: 1365, height: 1024) == 3)
        #expect(LumaHistogram.rowStep(width: 1024, height: 512) == 1)
        let oneRow = LumaPlane(width: 9, height: 1, pixels: Array(0..<9))
        #expect(LumaHistogram(oneRow).total == 9)
    }

    @Test("a scene whose brightest tenth is still dark is too dark; a dim scene with readable highlights is usable")
    func darkness() {
        let rule = ExposureRule()
        let lightsOff = ExposureStatistics(of: plane(levels: [2, 5, 8, 12, 18, 25, 30]))
        #expect(rule.verdict(on: lightsOff) == .tooDark)
        // A lamp-lit evening room: mostly dark, a fifth of it lit.
        let lampLit = ExposureStatistics(of: plane(levels: [10, 15, 20, 25, 30, 35, 40, 60, 90, 140]))
        #expect(rule.verdict(on: lampLit) == .usable)
        // A lamp alone in the dark (1 sample in 50) does not make the room visible.
        let lampOnly = ExposureStatistics(of: plane(levels: [UInt8](repeating: 8, count: 49) + [255]))
        #expect(rule.verdict(on: lampOnly) == .tooDark)
    }

    @Test("a scene a quarter clipped to white is overexposed; a bright window in a well-exposed room, and a white kitchen, are usable")
    func brightness() {
        let rule = ExposureRule()
        let washedOut = ExposureStatistics(of: plane(levels: [200, 215, 230, 245, 255, 255, 255]))
        #expect(rule.verdict(on: washedOut) == .overexposed)
        let mostlyClipped = ExposureStatistics(of: plane(levels: [60, 120, 255, 255, 255, 255]))
        #expect(rule.verdict(on: mostlyClipped) == .overexposed)
        // A window clipping a fifth of the frame (the most a usable labelled photo clips is 0.196).
        let window = ExposureStatistics(of: plane(levels: [40, 70, 90, 110, 130, 150, 170, 255, 255]))
        #expect(rule.verdict(on: window) == .usable)
        let whiteKitchen = ExposureStatistics(of: plane(levels: [110, 150, 190, 210, 225, 235, 240, 248]))
        #expect(rule.verdict(on: whiteKitchen) == .usable)
    }

    @Test("the figures are encoded under the names details.exposure documents")
    func codingKeys() throws {
        let statistics = ExposureStatistics(of: plane(levels: [0, 128, 255]))
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(statistics)) as? [String: Any])
        #expect(Set(object.keys) == ["mean", "p1", "p5", "p50", "p90", "p95", "p99", "shadow_share", "highlight_share"])
        #expect(statistics.shadowShare > 0.3 && statistics.highlightShare > 0.3)
    }
}
