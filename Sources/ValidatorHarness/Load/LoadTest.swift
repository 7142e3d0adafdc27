import Foundation
import Hummingbird
import Logging
import TestFixtures

/// A load test of a built daemon with wrk: one photo posted to `POST /v1/validate` at each
/// concurrency level, with requests/s, validations/s, p50/p99 latency, non-2xx and socket error
/// counts, how often `/readyz` said not ready during the level, the daemon's peak RSS, and the
/// scaling of validations/s (8 vs 1, 32 vs 8). With `contentStandIn` the content check is on,
/// against a loopback OpenAI-compatible `ProviderStandIn` that answers every photo
/// `interior_room` at once, so the figures include the preview's cost.
package struct LoadTest: Sendable {
    /// The photo posted.
    package let photo: URL
    /// Seconds per level.
    package let seconds: Int
    /// The concurrency levels, in order.
    package let levels: [Int]
    /// The `photo-validator` binary.
    package let binary: URL
    /// Whether the content check runs against a loopback stand-in.
    package let contentStandIn: Bool

    /// A load test of `binary` with `photo`.
    package init(photo: URL, seconds: Int = 20, levels: [Int] = [1, 2, 8, 32], binary: URL, contentStandIn: Bool = false) {
        (self.photo, self.seconds, self.levels, self.binary, self.contentStandIn) = (photo, seconds, levels, binary, contentStandIn)
    }

    /// A set-up failure: no wrk, no photo, a daemon that would not start.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        package let description: String
    }

    /// Runs every level and prints the table through `report`.
    package func run(report: @escaping @Sendable (String) -> Void) async throws {
        _ = try Wrk.executable()
        guard FileManager.default.fileExists(atPath: photo.path) else { throw Failure(description: "no such photo: \(photo.path)") }
        guard contentStandIn else {
            try await load(environment: [:], report: report)
            return
        }
        let standIn = ProviderStandIn(.openai, apiKey: "load-test") { _, _ in
            .labels(scene: "interior_room", mainSubject: "space", designRelated: true, reason: "a room")
        }
        let port = AsyncStream<Int>.makeStream()
        // The stand-in's own start and stop lines are not the daemon's and would only confuse the report.
        var quiet = Logger(label: "provider-stand-in")
        quiet.logLevel = .critical
        let app = Application(router: standIn.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { port.continuation.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            var iterator = port.stream.makeAsyncIterator()
            guard let standInPort = await iterator.next() else { throw Failure(description: "the provider stand-in did not start") }
            try await load(environment: [
                "PHOTO_VALIDATOR_CONTENT_PROVIDER": "openai", "PHOTO_VALIDATOR_CONTENT_BASE_URL": "http://127.0.0.1:\(standInPort)",
                "PHOTO_VALIDATOR_CONTENT_MODEL": "stand-in", "PHOTO_VALIDATOR_CONTENT_API_KEY": "load-test",
            ], report: report)
            group.cancelAll()
        }
    }

    /// Starts the daemon with `environment` and runs the levels against it.
    private func load(environment: [String: String], report: @escaping @Sendable (String) -> Void) async throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: photo.path)[.size] as? Int) ?? 0
        let (_, exit) = try await DaemonProcess.run(["--port", "0"], environment: environment, executable: binary.path) { daemon in
            let port = try daemon.port
            report("photo: \(photo.path) (\(size) bytes); daemon: \(binary.path) serve (defaults\(contentStandIn ? ", content check against a loopback stand-in" : "")); \(seconds)s per level")
            report(Self.row(["concurrency", "req/s", "validations/s", "p50 ms", "p99 ms", "non-2xx", "errors", "not ready"]))
            var validationsPerSecond: [Int: Double] = [:]
            for level in levels {
                let (result, probes) = try await measure(level: level, port: port)
                validationsPerSecond[level] = result["ok_per_s"] ?? 0
                let notReady = probes.filter { $0 != 200 }.count
                report(Self.row([String(level)] + ["rps", "ok_per_s", "p50_ms", "p99_ms"].map { String(format: "%.2f", result[$0] ?? .nan) }
                    + ["non2xx", "socket_errors"].map { String(Int(result[$0] ?? 0)) } + ["\(notReady)/\(probes.count)"]))
            }
            report("daemon peak RSS: \(Int(daemon.peakResidentMiB ?? 0)) MiB")
            if let one = validationsPerSecond[1], let eight = validationsPerSecond[8], one > 0 {
                report(String(format: "validations/s at 8 vs 1: %.2fx (target >= 1.7x)", eight / one))
            }
            if let eight = validationsPerSecond[8], let many = validationsPerSecond[32], eight > 0 {
                report(String(format: "validations/s at 32 vs 8: %.2f (target >= 0.90, wrk ignores Retry-After)", many / eight))
            }
            let metrics = try await RawHTTPAnswer(RawHTTP.request(port: port, method: "GET", path: "/metrics"))?.body ?? ""
            for line in metrics.split(separator: "\n") where line.hasPrefix("photo_validator_rejected_total") || line.hasPrefix("photo_validator_validations_total") {
                report(String(line))
            }
        }
        guard exit.status == 0 else { throw Failure(description: "the daemon exited with status \(exit.status): \(exit.log.suffix(10).joined(separator: "\n"))") }
    }

    /// One level: wrk's figures, and the statuses of `/readyz` sampled twice a second meanwhile
    /// (saturation must not show there).
    private func measure(level: Int, port: Int) async throws -> ([String: Double], [Int]) {
        let end = ContinuousClock.now + .seconds(seconds)
        async let probes: [Int] = {
            var statuses: [Int] = []
            while ContinuousClock.now < end {
                let answer = try? await RawHTTP.request(port: port, method: "GET", path: "/readyz")
                statuses.append(answer.flatMap(RawHTTPAnswer.init)?.status ?? 0)
                try? await Task.sleep(for: .milliseconds(500))
            }
            return statuses
        }()
        let figures = try await Wrk.run(url: "http://127.0.0.1:\(port)/v1/validate?photo_type=room", connections: level, seconds: seconds,
                                        script: Self.wrkScript, environment: ["PHOTO": photo.path])
        return (figures, await probes)
    }

    private static func row(_ cells: [String]) -> String {
        zip(cells, [12, 10, 14, 10, 10, 8, 8, 12]).map { cell, width in
            cell.count >= width ? cell : String(repeating: " ", count: width - cell.count) + cell
        }.joined(separator: " ")
    }

    /// wrk's script: the photo as the body, and one RESULT line of figures at the end.
    static let wrkScript = """
    local f = assert(io.open(os.getenv("PHOTO"), "rb"))
    wrk.method = "POST"
    wrk.body = f:read("*all")
    f:close()
    wrk.headers["Content-Type"] = "image/jpeg"
    function done(summary, latency, requests)
      local ok = summary.requests - (summary.errors.status or 0)
      io.write(string.format("RESULT rps=%.2f ok_per_s=%.2f p50_ms=%.1f p99_ms=%.1f non2xx=%d socket_errors=%d\\n",
        summary.requests / (summary.duration / 1e6), ok / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status or 0,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
    end
    """
}
