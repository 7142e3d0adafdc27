import Foundation
import TestFixtures
import Testing
@testable import BlurMetrics

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// The blur kernels' AVX2 row loops against the baseline loops: the same integers, bit for bit,
/// on planes of awkward sizes (odd widths, tails shorter than a vector, tiles that are not a
/// multiple of sixteen), at the largest differences there are, and on real photos.
@Suite("The AVX2 row loops against the baseline", .enabled(if: KernelPath.avx2Supported, "this CPU has no AVX2"), .timeLimit(.minutes(10)))
struct KernelPathTests {
    /// Planes that reach the extremes: random samples, a checkerboard of 0 and 255 (the largest
    /// second differences, 510, Laplacian responses, 1020, and diagonal details, 510), stripes,
    /// diagonals, flat white (the largest block sums).
    private func planes(width: Int, height: Int, seed: UInt64) -> [(String, LumaPlane)] {
        func plane(_ value: (Int, Int) -> UInt8) -> LumaPlane {
            LumaPlane(width: width, height: height, pixels: (0..<(width * height)).map { value($0 % width, $0 / width) })
        }
        return [
            ("random", randomPlane(width: width, height: height, seed: seed)),
            ("checkerboard", plane { ($0 + $1) % 2 == 0 ? 255 : 0 }),
            ("columns", plane { x, _ in x % 2 == 0 ? 0 : 255 }),
            ("diagonals", plane { x, y in (x + 2 * y) % 3 == 0 ? 255 : 0 }),
            ("white", plane { _, _ in 255 }),
        ]
    }

    @Test("the tile sums are the baseline's at every width around the vector sizes and awkward tiles", arguments: [
        (17, 9, 4), (31, 20, 31), (33, 33, 33), (47, 30, 15), (48, 48, 48), (50, 49, 16), (63, 40, 17), (64, 64, 32),
        (95, 51, 48), (97, 70, 7), (130, 97, 20), (200, 101, 1), (257, 130, 48), (1023, 60, 48), (1024, 96, 48), (1100, 50, 50),
    ])
    func tileSumsMatch(size: (Int, Int, Int)) {
        let (width, height, tile) = size
        for (name, plane) in planes(width: width, height: height, seed: UInt64(width * 31 + height)) {
            let side = OrientedDetail.side(of: plane, tileSize: tile)
            let rows = height / side
            plane.pixels.withUnsafeBufferPointer { pixels in
                // The whole plane, and a band that starts and ends inside it.
                for tileRows in [0..<rows, (rows / 3)..<max(rows / 3, rows - 1)] {
                    let baseline = OrientedDetail.tileSums(pixels: pixels.baseAddress!, width: width, height: height, tileSize: side,
                                                           tileRows: tileRows, path: .baseline)
                    let avx2 = OrientedDetail.tileSums(pixels: pixels.baseAddress!, width: width, height: height, tileSize: side,
                                                       tileRows: tileRows, path: .avx2)
                    #expect(avx2.curvature == baseline.curvature && avx2.gradient == baseline.gradient,
                            "\(name) \(width)x\(height), tiles of \(side), tile rows \(tileRows)")
                }
            }
        }
    }

    @Test("a tile as large as the plane, whose lanes are flushed inside the tile, sums the same")
    func largeTileMatches() {
        for (name, plane) in planes(width: 700, height: 700, seed: 70) {
            plane.pixels.withUnsafeBufferPointer { pixels in
                let baseline = OrientedDetail.tileSums(pixels: pixels.baseAddress!, width: 700, height: 700, tileSize: 700, tileRows: 0..<1, path: .baseline)
                let avx2 = OrientedDetail.tileSums(pixels: pixels.baseAddress!, width: 700, height: 700, tileSize: 700, tileRows: 0..<1, path: .avx2)
                #expect(avx2.curvature == baseline.curvature && avx2.gradient == baseline.gradient, "\(name)")
            }
        }
    }

    @Test("the smoothed plane is the baseline's, byte for byte, at every width from 1 to 100 and beyond")
    func smoothingMatches() {
        for width in Array(1...100) + [127, 128, 129, 1023, 1024, 1025] {
            for (name, plane) in planes(width: width, height: 5, seed: UInt64(width)) {
                #expect(BinomialSmoothing.apply(to: plane, path: .avx2) == BinomialSmoothing.apply(to: plane, path: .baseline),
                        "\(name), width \(width)")
            }
        }
    }

    @Test("the Laplacian sums are the baseline's at every width from 1 to 100 and beyond")
    func laplacianMatches() {
        for width in Array(1...100) + [127, 128, 129, 1023, 1024, 1025] {
            for (name, plane) in planes(width: width, height: 4, seed: UInt64(width)) {
                plane.pixels.withUnsafeBufferPointer { pixels in
                    let baseline = LaplacianVariance.statistics(pixels: pixels.baseAddress!, width: width, height: 4, path: .baseline)
                    let avx2 = LaplacianVariance.statistics(pixels: pixels.baseAddress!, width: width, height: 4, path: .avx2)
                    #expect(avx2 == baseline, "\(name), width \(width)")
                }
            }
        }
    }

    @Test("rows long enough to flush the AVX2 Laplacian lanes mid-row, at the largest responses, sum the same")
    func wideLaplacianRowsMatch() {
        // 1,024 steps of sixteen columns fill a lane to within 1% of 2^31 with the checkerboard's responses.
        let width = 3 * 1024 * 16 + 37
        for (name, plane) in planes(width: width, height: 3, seed: 3) {
            plane.pixels.withUnsafeBufferPointer { pixels in
                let baseline = LaplacianVariance.statistics(pixels: pixels.baseAddress!, width: width, height: 3, path: .baseline)
                let avx2 = LaplacianVariance.statistics(pixels: pixels.baseAddress!, width: width, height: 3, path: .avx2)
                #expect(avx2 == baseline, "\(name)")
                #expect(avx2.sum == referenceStatistics(plane).sum && avx2.sumOfSquares == referenceStatistics(plane).sumOfSquares, "\(name)")
            }
        }
    }

    @Test("the halved plane and the noise estimate's histogram are the baseline's at every size from 1 to 80 and beyond")
    func blockSumsMatch() {
        for width in Array(1...80) + [127, 128, 129, 1023, 1024, 1025] {
            for height in [1, 2, 3, 6] {
                for (name, plane) in planes(width: width, height: height, seed: UInt64(width * 7 + height)) {
                    #expect(plane.halved(path: .avx2) == plane.halved(path: .baseline), "\(name) \(width)x\(height)")
                    #expect(NoiseEstimate.diagonalHistogram(of: plane, path: .avx2) == NoiseEstimate.diagonalHistogram(of: plane, path: .baseline),
                            "\(name) \(width)x\(height)")
                }
            }
        }
    }

    @Test("real photos at the analysis scale give the baseline's figures", .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow"))
    func realPhotosMatch() throws {
        let photos = ["brushes-1365x1074.jpg", "cups.jpg", "grass-1280x1024.jpg", "indoor-ceiling-lamps.jpg", "outdoor-path.jpg",
                      "room-living-wine.jpg", "blur-real-text-motion.jpg", "small-indoor-lab.jpg"]
        for name in photos {
            let plane = try greyPlane(Fixtures.testdataFile("photos/" + name), longSide: 1024)
            for candidate in [plane, plane.halved()].compactMap({ $0 }) {
                candidate.pixels.withUnsafeBufferPointer { pixels in
                    let side = OrientedDetail.side(of: candidate, tileSize: OrientedDetail.defaultTileSize)
                    let rows = 0..<(candidate.height / side)
                    let baseline = OrientedDetail.tileSums(pixels: pixels.baseAddress!, width: candidate.width, height: candidate.height,
                                                           tileSize: side, tileRows: rows, path: .baseline)
                    let avx2 = OrientedDetail.tileSums(pixels: pixels.baseAddress!, width: candidate.width, height: candidate.height,
                                                       tileSize: side, tileRows: rows, path: .avx2)
                    #expect(avx2.curvature == baseline.curvature && avx2.gradient == baseline.gradient, "\(name) \(candidate.width)x\(candidate.height)")
                    let laplacian = LaplacianVariance.statistics(pixels: pixels.baseAddress!, width: candidate.width, height: candidate.height, path: .avx2)
                    #expect(laplacian == LaplacianVariance.statistics(pixels: pixels.baseAddress!, width: candidate.width, height: candidate.height,
                                                                      path: .baseline), "\(name)")
                }
                #expect(candidate.halved(path: .avx2) == candidate.halved(path: .baseline), "\(name)")
                #expect(NoiseEstimate.diagonalHistogram(of: candidate, path: .avx2) == NoiseEstimate.diagonalHistogram(of: candidate, path: .baseline),
                        "\(name)")
            }
        }
    }

    /// The photo at `url` as 8-bit grey (Pillow's `L`), reduced to `longSide` px on its long side.
    private func greyPlane(_ url: URL, longSide: Int) throws -> LumaPlane {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kernel-path-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("plane.raw")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert('L')
            image.thumbnail((\(longSide), \(longSide)), Image.BOX)
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

@Suite("The kernels' path")
struct KernelPathChoiceTests {
    @Test("the CPU check agrees with the kernel's flags (/proc/cpuinfo): the AVX2 path only where every Haswell feature the module may use is there",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/cpuinfo"), "needs Linux's /proc/cpuinfo"))
    func choice() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let line = try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
        let flags = Set(line.split(separator: " ").map(String.init))
        // Linux names LZCNT `abm`; it drops `avx` and `avx2` when it does not save the YMM state.
        let haswell: Set = ["avx", "avx2", "fma", "bmi1", "bmi2", "abm", "movbe", "f16c"]
        #expect(KernelPath.avx2Supported == haswell.isSubset(of: flags))
    }
}
