import Foundation
import PhotoChecks
import TestFixtures
import Testing
@testable import PhotoValidation

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// Resolution independence (issue 35): the gateway's own sharp test image (`_make_sharp_image`, 1 px
/// black lines every 4 px on grey) and its blurred solid (`_make_blurry_image`), written by Pillow as
/// the gateway writes them (`datasets/make-grid-sweep`) at every width from 1024 to 4096 px in
/// 128 px steps, in three shapes (the square from 768 to 4096x4096), as JPEG quality 75 and 95 and as PNG; and photos beside their
/// downscale to half.
@Suite("Resolution independence: the gateway's grid at every size", .integration,
       .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow (scripts/setup --test)"), .timeLimit(.minutes(15)))
struct GridSweepTests {
    /// One file of the sweep and its verdicts.
    struct Verdict: Sendable {
        let path: String
        let pattern: String
        let pair: String
        let width: Int
        let height: Int
        let photoType: PhotoType
        let blurry: Bool
        let score: Double
    }

    /// A sweep already written by `datasets/make-grid-sweep`: `PHOTO_VALIDATOR_GRID_SWEEP=.build/grid-sweep`.
    static let existingSweep = ProcessInfo.processInfo.environment["PHOTO_VALIDATOR_GRID_SWEEP"]

    /// Writes the sweep once (unless one is named) and validates every file as inspiration, and as a
    /// room where its shortest side allows, with the default settings, two at a time.
    static let verdicts = Task<[Verdict], any Error> {
        try await offloaded {
            if let existingSweep { return try validateSweep(in: URL(fileURLWithPath: existingSweep)) }
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("photo-validator-sweep-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            try runScript("make-grid-sweep", ["--out", out.path])
            return try validateSweep(in: out)
        }
    }

    /// Runs `datasets/NAME` (a data-set maker) with the test Python.
    static func runScript(_ name: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Fixtures.repositoryRoot.appendingPathComponent("datasets/\(name)").path] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
    }

    /// Validates every file of the sweep in `folder`.
    private static func validateSweep(in folder: URL) throws -> [Verdict] {
        let table = try CSVTable(contentsOf: folder.appendingPathComponent("manifest.csv"))
        let settings = ValidationSettings()
        let validator = try PhotoValidator(settings: settings)
        let rows = table.rows
        let results = LockedArray<Verdict>()
        @Sendable func validateRow(_ index: Int) {
            let row = rows[index]
            let path = row["path"] ?? ""
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(path)),
                  let width = Int(row["width"] ?? ""), let height = Int(row["height"] ?? "") else { return }
            var types: [PhotoType] = [.inspiration]
            if min(width, height) >= settings.minimumShortSide(for: .room) { types.append(.room) }
            for type in types {
                let output = data.withUnsafeBytes { validator.validate($0, as: type) }
                results.append(Verdict(path: path, pattern: row["pattern"] ?? "", pair: row["pair"] ?? "", width: width, height: height, photoType: type,
                                       blurry: output.failures.contains(.blurry), score: output.details.blurScore ?? .nan))
            }
        }
        // Threads of their own, not DispatchQueue.concurrentPerform: on Linux that borrows
        // Dispatch's workers, which are Swift's cooperative pool, and the other suites running
        // beside this one (live servers among them) would starve for the whole sweep.
        let threads = max(1, min(2, ProcessInfo.processInfo.activeProcessorCount))
        let done = DispatchGroup()
        for first in 0..<threads {
            done.enter()
            let thread = Thread {
                for index in stride(from: first, to: rows.count, by: threads) { validateRow(index) }
                done.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        done.wait()
        return results.values.sorted { ($0.path, $0.photoType.rawValue) < ($1.path, $1.photoType.rawValue) }

    }

    private func sweep() async throws -> [Verdict] {
        try #require(pythonPresent, ".venv with Pillow is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        return try await Self.verdicts.value
    }

    @Test("the grid passes at every size, shape and encoding, as a room where its size allows and as inspiration")
    func gridPasses() async throws {
        let grids = try await sweep().filter { $0.pattern == "grid" }
        try #require(grids.count >= 420)
        let failed = grids.filter(\.blurry)
        #expect(failed.isEmpty, "\(failed.count) of \(grids.count) verdicts call the grid blurry: \(failed.map { "\($0.path) as \($0.photoType.rawValue): \($0.score)" })")
    }

    @Test("the gateway's blurred solid fails at every size")
    func blurredSolidFails() async throws {
        let solids = try await sweep().filter { $0.pattern == "blurred-solid" }
        try #require(solids.count >= 420)
        let passed = solids.filter { !$0.blurry }
        #expect(passed.isEmpty, "blurred solids passed: \(passed.map { "\($0.path) as \($0.photoType.rawValue): \($0.score)" })")
    }

    @Test("a photo and its downscale to half get the same verdict, sharp and blurred, where the half is above the minimum side")
    func halfDownscale() async throws {
        let photos = try await sweep().filter { !$0.pair.isEmpty }
        var compared = 0
        for (pair, versions) in Dictionary(grouping: photos, by: { "\($0.pair) \($0.photoType.rawValue)" }) {
            guard let full = versions.first(where: { $0.pattern == "photo" }), let half = versions.first(where: { $0.pattern == "photo-half" }) else { continue }
            #expect(full.blurry == half.blurry, "\(pair): \(full.score) at full size, \(half.score) at half")
            compared += 1
        }
        try #require(compared >= 10)
    }
}
