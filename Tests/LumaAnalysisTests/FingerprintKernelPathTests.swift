import BlurMetrics
import Foundation
import TestFixtures
import Testing
@testable import LumaAnalysis

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// The duplicate fingerprint's AVX2 loops (FingerprintAVX2) against the baseline loops: the same
/// corners in the same order, the same resampled and blurred bytes, the same fingerprint, on planes
/// of awkward sizes (odd, tiny, tails shorter than a vector), at the extremes of the samples and
/// thresholds, and on real photos.
@Suite("The fingerprint's AVX2 loops against the baseline", .enabled(if: KernelPath.avx2Supported, "this CPU has no AVX2"), .timeLimit(.minutes(10)))
struct FingerprintKernelPathTests {
    /// Planes that reach the extremes: random samples, runs of 0 and 255, a checkerboard, stripes,
    /// diagonals, flat black and white, single dots of either extreme on the other (a corner of
    /// every circle pixel, scoring 254 or 255), and the golden tests' shapes.
    private func planes(width: Int, height: Int, seed: UInt64) -> [(String, LumaPlane)] {
        func plane(_ value: (Int, Int) -> UInt8) -> LumaPlane {
            LumaPlane(width: width, height: height, pixels: (0..<(width * height)).map { value($0 % width, $0 / width) })
        }
        var generator = SplitMix64(state: seed)
        let random = LumaPlane(width: width, height: height,
                               pixels: (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return [
            ("random", random),
            ("noise", TestScenes.noise(width: width, height: height, seed: seed)),
            ("shapes", TestScenes.shapes(width: width, height: height, seed: UInt32(truncatingIfNeeded: seed) | 1)),
            ("checkerboard", plane { ($0 + $1) % 2 == 0 ? 255 : 0 }),
            ("columns", plane { x, _ in x % 2 == 0 ? 0 : 255 }),
            ("diagonals", plane { x, y in (x + 2 * y) % 3 == 0 ? 255 : 0 }),
            ("white", plane { _, _ in 255 }),
            ("black", plane { _, _ in 0 }),
            ("white dots", plane { x, y in x % 7 == 3 && y % 7 == 3 ? 255 : 0 }),
            ("black dots", plane { x, y in x % 9 == 4 && y % 8 == 4 ? 0 : 255 }),
        ]
    }

    private static let widths = Array(1...80) + [95, 96, 97, 127, 128, 129, 255, 256, 257, 300, 513]

    @Test("FAST finds the same corners in the same order at every width, threshold and border")
    func cornersMatch() {
        for width in Self.widths where width >= 7 {
            for height in [7, 9, 12, 40] {
                for (name, plane) in planes(width: width, height: height, seed: UInt64(width * 101 + height)) {
                    for threshold in [0, 1, 10, 40, 100, 200, 254, 255] {
                        for border in [3, 4, 31] {
                            let baseline = FastCorners.detect(in: plane, threshold: threshold, border: border, path: .baseline)
                            let avx2 = FastCorners.detect(in: plane, threshold: threshold, border: border, path: .avx2)
                            #expect(avx2 == baseline, "\(name) \(width)x\(height), threshold \(threshold), border \(border)")
                        }
                    }
                    let rows = 4..<max(4, height - 3)
                    #expect(FastCorners.detect(in: plane, threshold: 10, border: 3, rows: rows, path: .avx2)
                            == FastCorners.detect(in: plane, threshold: 10, border: 3, rows: rows, path: .baseline), "\(name) \(width)x\(height), rows \(rows)")
                }
            }
        }
    }

    @Test("the bilinear step gives the same bytes shrinking by the pyramid's 1.3 and by other factors, and enlarging")
    func bilinearMatches() {
        for width in Self.widths where width >= 2 {
            for height in [1, 2, 5, 13] {
                for (name, plane) in planes(width: width, height: height, seed: UInt64(width * 7 + height)) {
                    var targets: [(Int, Int)] = []
                    for factor in [1.0, 1.3, 1.69, 1.99, 2.0, 2.5, 4.0, 0.5, 0.77] {
                        targets.append((max(1, Int((Double(width) / factor).rounded())), max(1, Int((Double(height) / factor).rounded()))))
                    }
                    targets += [(1, 1), (width + 1, height), (max(1, width - 1), height + 3)]
                    for (w, h) in targets {
                        #expect(PlaneResampling.resizedBilinear(plane, width: w, height: h, path: .avx2)
                                == PlaneResampling.resizedBilinear(plane, width: w, height: h, path: .baseline),
                                "\(name) \(width)x\(height) to \(w)x\(h)")
                    }
                }
            }
        }
    }

    @Test("the halved and quarter planes are the baseline's at every width around the vector sizes")
    func halvingMatches() {
        for width in Self.widths + [1024, 1055, 2047] where width >= 4 {
            for height in [4, 5, 7, 8, 11] {
                for (name, plane) in planes(width: width, height: height, seed: UInt64(width * 17 + height)) {
                    let baseline = PlaneResampling.halvedAndQuartered(plane, path: .baseline)
                    let avx2 = PlaneResampling.halvedAndQuartered(plane, path: .avx2)
                    #expect(avx2?.half == baseline?.half && avx2?.quarter == baseline?.quarter && avx2 != nil, "\(name) \(width)x\(height)")
                }
            }
        }
    }

    @Test("the descriptor blur gives the same bytes over the whole plane and near keypoints")
    func blurMatches() {
        for width in Self.widths {
            for height in [1, 6, 7, 8, 20] {
                for (name, plane) in planes(width: width, height: height, seed: UInt64(width * 13 + height)) {
                    #expect(PlaneResampling.gaussianBlurred7(plane, path: .avx2) == PlaneResampling.gaussianBlurred7(plane, path: .baseline),
                            "\(name) \(width)x\(height)")
                }
            }
        }
        var generator = SplitMix64(state: 51)
        for (width, height) in [(160, 120), (301, 257), (683, 512)] {
            for (name, plane) in planes(width: width, height: height, seed: UInt64(width)) {
                for radius in [1, 5, 19, 23] {
                    for count in [1, 2, 17, 128] {
                        let margin = radius + 10
                        let centres = (0..<count).map { _ in
                            (x: Int.random(in: (radius + 3)..<(width - radius - 3), using: &generator),
                             y: Int.random(in: margin..<(height - margin), using: &generator))
                        }
                        var baseline: [UInt8] = [], avx2: [UInt8] = []
                        PlaneResampling.gaussianBlurred7(plane, near: centres, radius: radius, into: &baseline, path: .baseline)
                        PlaneResampling.gaussianBlurred7(plane, near: centres, radius: radius, into: &avx2, path: .avx2)
                        #expect(avx2 == baseline, "\(name) \(width)x\(height), \(count) centres of radius \(radius)")
                    }
                }
            }
        }
    }

    @Test("the extractor's keypoints and descriptors and the whole fingerprint are the baseline's on synthetic planes")
    func fingerprintsMatch() {
        for shape in FingerprintGoldenTests.golden {
            let plane = TestScenes.shapes(width: shape.width, height: shape.height, seed: shape.seed)
            #expect(PhotoFingerprint(of: plane, path: .avx2).bytes == PhotoFingerprint(of: plane, path: .baseline).bytes,
                    "\(shape.width)x\(shape.height) seed \(shape.seed)")
        }
        for (width, height) in [(512, 683), (683, 512), (700, 300), (97, 130), (63, 64)] {
            for (name, plane) in planes(width: width, height: height, seed: UInt64(width * height)) {
                let baseline = OrbExtractor.extract(from: plane, keeping: 128, path: .baseline)
                let avx2 = OrbExtractor.extract(from: plane, keeping: 128, path: .avx2)
                #expect(avx2.xs == baseline.xs && avx2.ys == baseline.ys && avx2.words == baseline.words && avx2.fractionBits == baseline.fractionBits,
                        "\(name) \(width)x\(height)")
            }
        }
    }

    @Test("real photos give the baseline's fingerprint, byte for byte", .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow"))
    func realPhotosMatch() throws {
        let folder = Fixtures.testdata.appendingPathComponent("photos")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 10)
        for name in names {
            let plane = try greyPlane(folder.appendingPathComponent(name))
            #expect(PhotoFingerprint(of: plane, path: .avx2).bytes == PhotoFingerprint(of: plane, path: .baseline).bytes, "\(name)")
            if let detection = LocalFeatures.detectionPlane(of: plane) {
                let baseline = OrbExtractor.extract(from: detection, keeping: 128, path: .baseline)
                let avx2 = OrbExtractor.extract(from: detection, keeping: 128, path: .avx2)
                // A fingerprint that held no keypoints would compare nothing.
                #expect(!baseline.xs.isEmpty || min(plane.width, plane.height) < 100, "\(name)")
                #expect(avx2.words == baseline.words && avx2.xs == baseline.xs && avx2.ys == baseline.ys, "\(name)")
            }
        }
    }

    /// The photo at `url` as 8-bit grey (Pillow's `L`), at its full size.
    private func greyPlane(_ url: URL) throws -> LumaPlane {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fingerprint-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("plane.raw")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert('L')
            open(sys.argv[2], 'wb').write(image.tobytes())
            print(image.width, image.height)
            """, url.path, output.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        let size = printed.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(size.count == 2)
        let pixels = [UInt8](try Data(contentsOf: output))
        try #require(pixels.count == size[0] * size[1])
        return LumaPlane(width: size[0], height: size[1], pixels: pixels)
    }
}
