import Foundation
import TestFixtures
import Testing

@Suite("the daemon's decode workers", .integration, .timeLimit(.minutes(5)))
struct DecodeIsolationDaemonTests {
    @Test("a photo that crashes its decode worker is that photo's invalid_image decoder_crashed; the next photo passes and the daemon stays healthy")
    func crashCostsOnePhoto() async throws {
        let environment = [
            "PHOTO_VALIDATOR_DECODE_WORKER_TEST_REQUESTS": "true",
            "PHOTO_VALIDATOR_CONTENT_API_KEY": "sk-must-not-reach-a-worker",
        ]
        let (answers, exit) = try await DaemonProcess.run(["--port", "0", "--workers", "2"], environment: environment) { daemon in
            let port = try daemon.port
            let crashing = Array("PV-TEST-CRASH and then anything".utf8)
            let first = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=room", body: crashing)
            let good = Array(try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg")))
            let second = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=inspiration", body: good)
            let health = try await RawHTTP.request(port: port, method: "GET", path: "/healthz")
            let ready = try await RawHTTP.request(port: port, method: "GET", path: "/readyz")
            let metrics = try await RawHTTP.request(port: port, method: "GET", path: "/metrics")
            return [first, second, health, ready, metrics]
        }
        let (first, second, health, ready, metrics) = (answers[0], answers[1], answers[2], answers[3], answers[4])
        #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(400))")
        #expect(first.contains("\"invalid_image\""))
        #expect(first.contains("\"error\":\"decoder_crashed\""), "\(first.suffix(600))")
        #expect(second.hasPrefix("HTTP/1.1 200"), "\(second.prefix(400))")
        #expect(second.contains("\"passed\":true"), "\(second.suffix(600))")
        #expect(health.hasPrefix("HTTP/1.1 200"))
        #expect(ready.hasPrefix("HTTP/1.1 200"))
        #expect(ready.contains("\"decoder_crashed\":1"), "\(ready.suffix(300))")
        #expect(metrics.contains("photo_validator_decode_worker_restarts_total{reason=\"decoder_crashed\"} 1"))
        // The crashed worker's replacement is started in the background: ready by now or not, it did not fail.
        #expect(metrics.contains("photo_validator_decode_worker_replacements_total{outcome=\"failed\"} 0"), "\(metrics.suffix(2000))")
        #expect(exit.status == 0, "\(exit.log.suffix(10))")
    }
}
