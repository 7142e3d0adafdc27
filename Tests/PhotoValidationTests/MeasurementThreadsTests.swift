import Foundation
import PhotoChecks
import PhotoValidation
import TestFixtures
import Testing

/// A photo that finds an idle core measures its blur score beside its exposure and fingerprint
/// (and decodes a HEIC's tiles on both): the answer must not depend on it.
@Suite("A photo measured on two threads")
struct MeasurementThreadsTests {
    @Test("measures exactly as on one thread: the same blur, exposure and fingerprint figures and the same answer")
    func sameAsOneThread() async throws {
        let heic = try #require(Fixtures.sharedFile("photos/room-couch-pug.heic"), "../shared is needed")
        let files = ["cups.jpg", "blur-real-clock-motion.png", "outdoor-dandelions-bokeh.jpg", "screenshot-map.png"]
            .map { Fixtures.testdataFile("photos/\($0)") } + [heic]
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
                    let sameMeasurements = one.measurements != nil && one.measurements == two.measurements
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
