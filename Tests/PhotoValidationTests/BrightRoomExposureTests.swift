import Foundation
import PhotoChecks
import TestFixtures
import Testing
@testable import PhotoValidation

private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let pythonPresent = FileManager.default.isExecutableFile(atPath: python)

/// Issue 48: a bright room whose furniture keeps its tones is not `overexposed`, a blown one is,
/// and the gateway's grid is not `too_dark`, on real rooms of `../shared` made brighter in linear
/// light (`datasets/make-bright-cases`), through the whole validator.
@Suite("Exposure: bright rooms pass, blown rooms fail", .integration,
       .enabled(if: pythonPresent || Fixtures.peersRequired, "needs .venv with Pillow (scripts/setup --test)"),
       .enabled(if: Fixtures.sharedRequiredOrPresent, "needs ../shared/rooms beside the checkout"))
struct BrightRoomExposureTests {
    @Test("real rooms 1 EV brighter (walls clip, furniture keeps its tones) pass; 3 EV brighter they are overexposed; the gateway's grid at 2048x1024 is usable")
    func brightRooms() async throws {
        try #require(pythonPresent, ".venv with Pillow is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        let shared = try #require(Fixtures.shared, "../shared is required (PHOTO_VALIDATOR_REQUIRE_PEERS=1)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("photo-validator-bright-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        try await offloaded { try GridSweepTests.runScript("make-bright-cases", ["--out", out.path, "--shared", shared.path]) }
        let rows = try CSVTable(contentsOf: out.appendingPathComponent("manifest.csv")).rows
        try #require(rows.count == 11)
        var clippedUsable = 0
        for row in rows {
            let name = row["path"] ?? ""
            let output = try await validate(out.appendingPathComponent(name), as: .inspiration)
            let exposure = try #require(output.details.exposure, "\(name)")
            let failures = output.failures.filter { $0 == .tooDark || $0 == .overexposed }
            if row["expected"] == "usable" {
                #expect(failures.isEmpty, "\(name): \(exposure)")
                if exposure.highlightShare >= ValidationSettings().exposure.clippedShare { clippedUsable += 1 }
            } else {
                #expect(failures == [.overexposed], "\(name): \(exposure)")
            }
        }
        // The bright rooms clip more than the clipped share alone allowed: they failed before issue 48.
        #expect(clippedUsable == 5)
    }
}
