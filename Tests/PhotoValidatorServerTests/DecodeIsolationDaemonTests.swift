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

    @Test("while decode workers die at birth, a good photo is 503 decoder_unavailable with Retry-After, never the photo's invalid_image; /readyz is 503 and the metrics say so; repaired, the daemon is ready again without a photo and serves")
    func workersDyingAtBirth() async throws {
        let link = try WorkerExecutableLink()
        let environment = [
            "PHOTO_VALIDATOR_DECODE_WORKER_TEST_REQUESTS": "true",
            "PHOTO_VALIDATOR_DECODE_WORKER_EXECUTABLE": link.path,
        ]
        let good = Array(try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg")))
        let (answers, exit) = try await DaemonProcess.run(["--port", "0", "--workers", "1"], environment: environment) { daemon in
            let port = try daemon.port
            let before = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=inspiration", body: good)
            // A broken install: every new worker exits at once; then the running one crashes on a photo.
            try link.breakWorkers()
            let crashing = Array("PV-TEST-CRASH and then anything".utf8)
            let crashed = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=room", body: crashing)
            var refused: [String] = []
            for _ in 0..<4 {
                let start = ContinuousClock.now
                refused.append(try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=inspiration", body: good))
                print("a good photo while workers die at birth answered in \(ContinuousClock.now - start)")
            }
            let unready = try await RawHTTP.request(port: port, method: "GET", path: "/readyz")
            let health = try await RawHTTP.request(port: port, method: "GET", path: "/healthz")
            let brokenMetrics = try await RawHTTP.request(port: port, method: "GET", path: "/metrics")
            try link.repair()
            // No photo is sent: the workers come back by a start in the background.
            var ready = ""
            let back = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < back {
                ready = try await RawHTTP.request(port: port, method: "GET", path: "/readyz")
                if ready.hasPrefix("HTTP/1.1 200") { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            let after = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=inspiration", body: good)
            let repairedMetrics = try await RawHTTP.request(port: port, method: "GET", path: "/metrics")
            return [before, crashed, unready, health, brokenMetrics, ready, after, repairedMetrics] + refused
        }
        let (before, crashed, unready, health, brokenMetrics, ready, after, repairedMetrics) =
            (answers[0], answers[1], answers[2], answers[3], answers[4], answers[5], answers[6], answers[7])
        #expect(before.hasPrefix("HTTP/1.1 200") && before.contains("\"passed\":true"), "\(before.suffix(400))")
        // The photo that crashed its worker is that photo's own failure.
        #expect(crashed.hasPrefix("HTTP/1.1 200") && crashed.contains("\"error\":\"decoder_crashed\""), "\(crashed.suffix(400))")
        for answer in answers.dropFirst(8) {
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(600))")
            #expect(answer.lowercased().contains("retry-after:"), "\(answer.prefix(600))")
            #expect(answer.contains("\"error\":\"decoder_unavailable\"") && answer.contains("\"retryable\":true"), "\(answer.suffix(600))")
            #expect(!answer.contains("invalid_image"))
        }
        #expect(unready.hasPrefix("HTTP/1.1 503") && unready.contains("decode workers:"), "\(unready.suffix(600))")
        // Liveness stands: a restart of the process would not mend a broken install.
        #expect(health.hasPrefix("HTTP/1.1 200"))
        #expect(brokenMetrics.contains("photo_validator_decode_workers_available 0"), "\(brokenMetrics.suffix(3000))")
        let failures = brokenMetrics.split(separator: "\n").first { $0.hasPrefix("photo_validator_decode_worker_start_failures_total ") }
        #expect(failures.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 >= 3 } == true, "\(failures ?? "no start failure counter")")
        #expect(brokenMetrics.contains("photo_validator_rejected_total{reason=\"decoder_unavailable\"} 4"), "\(brokenMetrics.suffix(3000))")
        #expect(brokenMetrics.contains("photo_validator_decode_worker_restarts_total{reason=\"decoder_crashed\"} 1"))
        #expect(ready.hasPrefix("HTTP/1.1 200"), "not ready within 60 s of the repair: \(ready.suffix(600))")
        #expect(after.hasPrefix("HTTP/1.1 200") && after.contains("\"passed\":true"), "\(after.suffix(600))")
        #expect(repairedMetrics.contains("photo_validator_decode_workers_available 1"))
        #expect(exit.status == 0, "\(exit.log.suffix(10))")
    }
}
