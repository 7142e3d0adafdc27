import Foundation
import PhotoChecks
import PhotoValidation
import TestFixtures
import Testing

/// A photo that finds an idle core measures its blur score beside its exposure and fingerprint
/// (and decodes a HEIC's tiles on both): the answer must not depend on it.
@Suite("A photo measured on two threads")
struct MeasurementThreadsTests {
    @Test("measures exactly as on one thread: the same blur, exposure and fingerprint figures and the same answer, broken files included")
    func sameAsOneThread() async throws {
        let heic = try #require(Fixtures.sharedFile("photos/room-couch-pug.heic"), "../shared is needed")
        let turned = try #require(Fixtures.sharedFile("photos/paper-arrow.heic"), "../shared is needed")
        // JPEGs sharp and blurred (decoded twice), PNGs, HEICs (their tiles on both threads, and
        // the plane built and its top bands measured on whichever thread completes a strip, by
        // rows of tiles or, turned a quarter, by columns), and
        // truncated files, whose decode stops while the plane is built on the other thread.
        let files = ["cups.jpg", "blur-real-clock-motion.png", "outdoor-dandelions-bokeh.jpg", "screenshot-map.png", "blur-real-text-defocus.jpg"]
            .map { Fixtures.testdataFile("photos/\($0)") } + [heic, turned]
            + (try ["truncated.jpg", "truncated.png", "broken-data-stream.png"].map { try #require(Fixtures.sharedFile("bad-inputs/\($0)"), "../shared is needed") })
        let differences: [String] = try await offloaded {
            let checks = try InProcessChecks(settings: ValidationSettings())
            var differences: [String] = []
            for url in files {
                let data = try Data(contentsOf: url)
                for photoType in [PhotoType.room, .inspiration] {
                    let (one, two) = data.withUnsafeBytes { bytes in
                        (checks.measuredCheck(bytes, as: photoType, previews: nil, threads: 1),
                         checks.measuredCheck(bytes, as: photoType, previews: nil, threads: 2))
                    }
                    let sameMeasurements = one.measurements == two.measurements && (one.measurements != nil || !one.output.passed)
                    let sameAnswer = one.output.passed == two.output.passed && one.output.failures == two.output.failures
                        && one.output.details.blurScore == two.output.details.blurScore
                    if !sameMeasurements || !sameAnswer {
                        differences.append("\(url.lastPathComponent) as \(photoType)")
                    }
                }
            }
            return differences
        }
        #expect(differences.isEmpty, "measured differently on two threads: \(differences)")
    }
}
