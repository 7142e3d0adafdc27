import Foundation
import TestFixtures
import Testing
@testable import BlurMetrics

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// A small photo scored as a person sees it at 1024 px on its long side (issue 48's label).
@Suite("A small plane magnified to the label's size", .timeLimit(.minutes(5)))
struct LumaPlaneMagnifyingTests {
    /// A deterministic plane with edges, gradients and fine texture.
    private func texture(width: Int, height: Int) -> LumaPlane {
        var state: UInt32 = 12345
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let block = ((x / 17) + (y / 11)) % 2 == 0 ? 60 : 190
                let ramp = (x * 40) / width
                let noise = Int(state >> 28) - 8
                pixels[y * width + x] = UInt8(clamping: block + ramp + noise)
            }
        }
        return LumaPlane(width: width, height: height, pixels: pixels)
    }

    @Test("a plane already 1024 px on its long side, or larger, is not magnified; a smaller one gets 1024 px on its long side")
    func sizes() throws {
        #expect(texture(width: 1024, height: 300).magnified() == nil)
        #expect(texture(width: 200, height: 1500).magnified() == nil)
        let wide = try #require(texture(width: 500, height: 300).magnified())
        #expect(wide.width == 1024 && wide.height == 614)
        let tall = try #require(texture(width: 300, height: 640).magnified())
        #expect(tall.width == 480 && tall.height == 1024)
    }

    @Test("a flat plane stays flat and a step keeps its two levels away from the edge")
    func levels() throws {
        let flat = try #require(LumaPlane(width: 100, height: 80, pixels: [UInt8](repeating: 77, count: 8000)).magnified())
        #expect(Set(flat.pixels) == [77])
        let step = LumaPlane(width: 100, height: 10, pixels: (0..<1000).map { $0 % 100 < 50 ? 20 : 220 })
        let big = try #require(step.magnified())
        #expect(big.pixels[0] == 20 && big.pixels[big.width - 1] == 220)
        #expect(big.pixels[big.width / 4] == 20 && big.pixels[3 * big.width / 4] == 220)
    }

    @Test("the same pixels as Pillow's BICUBIC resize, within one level", .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow"))
    func matchesPillow() throws {
        let plane = texture(width: 333, height: 250)
        let magnified = try #require(plane.magnified())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("magnify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.raw"), output = folder.appendingPathComponent("out.raw")
        try Data(plane.pixels).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", """
            import sys
            from PIL import Image
            data = open(sys.argv[1], 'rb').read()
            image = Image.frombytes('L', (\(plane.width), \(plane.height)), data)
            open(sys.argv[2], 'wb').write(image.resize((\(magnified.width), \(magnified.height)), Image.BICUBIC).tobytes())
            """, input.path, output.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let pillow = [UInt8](try Data(contentsOf: output))
        try #require(pillow.count == magnified.pixels.count)
        let differences = zip(pillow, magnified.pixels).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 1, "largest difference \(differences.max() ?? 0)")
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 0.1)
    }

    @Test("a blur that a small photo's own size hides is seen magnified: the score falls further than the sharp photo's")
    func smallBlurCounts() throws {
        let sharp = texture(width: 480, height: 360)
        // A 3-tap box across rows: a shake of about 1.5 px at 480 px, 3 px on the screen.
        var shaken = sharp.pixels
        for y in 0..<sharp.height {
            for x in 1..<(sharp.width - 1) {
                let i = y * sharp.width + x
                shaken[i] = UInt8((Int(sharp.pixels[i - 1]) + Int(sharp.pixels[i]) + Int(sharp.pixels[i + 1]) + 1) / 3)
            }
        }
        let blurred = LumaPlane(width: sharp.width, height: sharp.height, pixels: shaken)
        func score(_ plane: LumaPlane) -> Double { OrientedDetail.score(of: plane, strongestShare: 0.3) }
        let own = (sharp: score(sharp), blurred: score(blurred))
        let screen = (sharp: score(try #require(sharp.magnified())), blurred: score(try #require(blurred.magnified())))
        #expect(screen.blurred < screen.sharp)
        #expect(screen.blurred / screen.sharp < own.blurred / own.sharp,
                "at its own size \(own.blurred) of \(own.sharp); magnified \(screen.blurred) of \(screen.sharp)")
    }
}
