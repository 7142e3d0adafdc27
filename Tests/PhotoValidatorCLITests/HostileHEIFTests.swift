import Foundation
import TestFixtures
import Testing

/// The crafted HEIC lies of `datasets/make-heif-lies` (reference cycles, bitstreams larger than their
/// container, thousands of cells over one tile...) against the built binary: each is refused
/// quickly, and the daemon survives all of them in a row with its memory and health intact.
@Suite("Crafted HEIC files against validate and the daemon", .integration, .timeLimit(.minutes(10)), .enabled(if: Fixtures.sharedRequiredOrPresent))
struct HostileHEIFTests {
    @Test("validate refuses every lie as invalid_image, each within 2 s, and decodes every control")
    func validateCommand() async throws {
        let files = try await HEIFLies.generate()
        let outcome = try await ProcessRunner.run(
            ProcessRunner.photoValidatorExecutable, ["validate", "--format", "jsonl", "--jobs", "1"] + files.map(\.url.path)
        )
        #expect(outcome.status == 1, "some photos fail: exit 1; \(outcome.standardError.suffix(500))")
        let answers = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("{") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(answers.count == files.count, "one answer per file")
        for answer in answers {
            let path = answer["path"] as? String ?? ""
            let failures = answer["failures"] as? [String] ?? []
            let details = answer["details"] as? [String: Any] ?? [:]
            let total = (details["timings_ms"] as? [String: Any])?["total"] as? Double ?? .infinity
            if (path as NSString).lastPathComponent.hasPrefix("lie-") {
                #expect(failures == ["invalid_image"], "\(path): \(failures) \(details["error_detail"] ?? "")")
                #expect(total < 2000, "\(path) took \(total) ms")
            } else {
                #expect(!failures.contains("invalid_image"), "\(path): \(details["error_detail"] ?? "")")
            }
        }
    }

    @Test("the daemon answers every lie within 2 s with invalid_image, stays healthy, and its memory returns")
    func daemon() async throws {
        let files = try await HEIFLies.generate().filter(\.isLie)
        let (figures, exit) = try await DaemonProcess.run(["--port", "0", "--workers", "2"]) { daemon in
            let port = try daemon.port
            // Warm up with a real photo so the baseline includes what every upload costs.
            let photo = Array(try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg")))
            _ = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=room", body: photo)
            let baseline = try #require(daemon.residentMiB)
            var peak = baseline
            for file in files {
                let clock = ContinuousClock()
                let start = clock.now
                let answer = try await RawHTTP.request(
                    port: port, method: "POST", path: "/v1/validate?photo_type=room", body: Array(try Data(contentsOf: file.url))
                )
                let elapsed = clock.now - start
                #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("\"invalid_image\""), "\(file): \(answer.prefix(400))")
                // The service's own figure for the photo (the request's wall time also holds
                // whatever else this machine runs at the time, so it only has to come at all).
                let total = answer.firstMatch(of: /"total":([0-9.]+)/).flatMap { Double($0.1) } ?? .infinity
                #expect(total < 2000, "\(file): \(total) ms in the daemon")
                #expect(elapsed < .seconds(30), "\(file) took \(elapsed)")
                let health = try await RawHTTP.request(port: port, method: "GET", path: "/healthz")
                #expect(health.hasPrefix("HTTP/1.1 200"), "\(file): /healthz \(health.prefix(200))")
                peak = max(peak, daemon.residentMiB ?? .infinity)
            }
            let after = try #require(daemon.residentMiB)
            let good = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=room", body: photo)
            #expect(good.contains("\"passed\":true"), "a real photo after the lies: \(good.prefix(300))")
            return (baseline, peak, after)
        }
        print("crafted HEIC lies: \(files.count) uploads; daemon RSS \(Int(figures.0)) MiB before, peak \(Int(figures.1)), after \(Int(figures.2))")
        #expect(figures.2 - figures.0 < 50, "RSS grew from \(figures.0) to \(figures.2) MiB")
        #expect(exit.status == 0, "the daemon survived and stopped cleanly: \(exit.log.suffix(5))")
    }
}
