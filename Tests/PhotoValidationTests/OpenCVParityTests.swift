import Foundation
import TestFixtures
import Testing
@testable import PhotoValidation

/// The Python with OpenCV that `scripts/test` installs into `.venv`.
private let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
private let openCVAvailable = FileManager.default.isExecutableFile(atPath: python) || Fixtures.peersRequired

@Suite("Parity with OpenCV at native scale", .integration, .enabled(if: openCVAvailable, "needs .venv with opencv-python-headless: run scripts/test"), .timeLimit(.minutes(10)))
struct OpenCVParityTests {
    static let files = [
        "photos/room-living-wine.jpg", "photos/cups.jpg", "photos/small-indoor-lab.jpg", "photos/blur-real-text-motion.jpg",
        "photos/small-coffee.png", "photos/screenshot-map.png", "photos/blur-real-clock-motion.png", "variants/same-room.png",
    ]

    @Test("laplacian_variance equals cv2.Laplacian(gray, CV_64F).var() to 1e-6 relative")
    func parity() async throws {
        let paths = Self.files.map { Fixtures.testdataFile($0).path }
        let outcome = try await ProcessRunner.run(
            URL(fileURLWithPath: python),
            [Fixtures.repositoryRoot.appendingPathComponent("scripts/peers/opencv-variance").path] + paths
        )
        try #require(outcome.status == 0, "opencv-variance failed: \(outcome.standardError)")
        let reference = try JSONDecoder().decode([String: Double].self, from: Data(outcome.standardOutput.utf8))
        var settings = ValidationSettings()
        settings.analysisScale = .native
        for path in paths {
            let ours = try await validate(URL(fileURLWithPath: path), as: .room, settings: settings).details.laplacianVariance
            let theirs = try #require(reference[path])
            let relative = abs((ours ?? .nan) - theirs) / theirs
            #expect(relative < 1e-6, "\(path): ours \(String(describing: ours)), OpenCV \(theirs)")
        }
    }
}
