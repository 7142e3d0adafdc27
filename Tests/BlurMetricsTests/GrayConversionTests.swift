import Testing
@testable import BlurMetrics

@Suite("Grey conversion", .timeLimit(.minutes(10)))
struct GrayConversionTests {
    @Test("primaries and extremes give OpenCV's values")
    func knownValues() {
        // cv2.cvtColor of pure red, green and blue pixels gives 76, 150 and 29.
        #expect(GrayConversion.luma(red: 255, green: 0, blue: 0) == 76)
        #expect(GrayConversion.luma(red: 0, green: 255, blue: 0) == 150)
        #expect(GrayConversion.luma(red: 0, green: 0, blue: 255) == 29)
        #expect(GrayConversion.luma(red: 255, green: 255, blue: 255) == 255)
        #expect(GrayConversion.luma(red: 0, green: 0, blue: 0) == 0)
    }

    @Test("a grey pixel keeps its value for every level")
    func greyIsUnchanged() {
        for level in UInt8.min...UInt8.max {
            #expect(GrayConversion.luma(red: level, green: level, blue: level) == level)
        }
    }

    @Test("rows of 1 to 4 bands convert, ignoring alpha")
    func rowsByBandCount() {
        let rgb: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        let rgba: [UInt8] = [255, 0, 0, 9, 0, 255, 0, 9, 0, 0, 255, 9]
        let grey: [UInt8] = [10, 20, 30]
        let greyAlpha: [UInt8] = [10, 1, 20, 1, 30, 1]
        for (source, bands, expected) in [(rgb, 3, [76, 150, 29]), (rgba, 4, [76, 150, 29]), (grey, 1, [10, 20, 30]), (greyAlpha, 2, [10, 20, 30])] {
            var output = [UInt8](repeating: 0, count: 3)
            source.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { output in
                    GrayConversion.convertRow(source.baseAddress!, bands: bands, count: 3, into: output.baseAddress!)
                }
            }
            #expect(output == expected.map(UInt8.init), "bands \(bands)")
        }
    }
}
