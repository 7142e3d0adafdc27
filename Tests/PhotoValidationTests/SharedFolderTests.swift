import Foundation
import TestFixtures
import Testing

@Suite("The shared photo folders", .integration, .timeLimit(.minutes(10)))
struct SharedFolderTests {
    @Test("under scripts/test, ../shared with its photos, rooms, bad inputs and hostile uploads is beside the checkout",
          .enabled(if: Fixtures.peersRequired, "only required under scripts/test (PHOTO_VALIDATOR_REQUIRE_PEERS=1)"))
    func present() throws {
        let shared = try #require(Fixtures.shared, "../shared is missing: tests that read real photos would not run")
        for folder in ["photos", "rooms", "bad-inputs", "hostile"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: shared.appendingPathComponent(folder).path)
            #expect(files.count > 1, "../shared/\(folder) is empty")
        }
    }
}
