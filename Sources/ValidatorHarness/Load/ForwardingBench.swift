import Foundation
import TestFixtures

/// Uploads with signal forwarding on, against a real Temporal dev server: a photo posted to the
/// gateway upload endpoint with wrk, then, once the outbox has delivered everything, uploads/s
/// and the promise-to-delivery latency from the outbox's own timestamps.
package struct ForwardingBench: Sendable {
    /// The photo uploaded.
    package let photo: URL
    /// Seconds of load.
    package let seconds: Int
    /// Uploads in flight.
    package let concurrency: Int
    /// The `photo-validator` binary.
    package let binary: URL

    /// A bench of `binary` with `photo`.
    package init(photo: URL, seconds: Int = 15, concurrency: Int = 4, binary: URL) {
        (self.photo, self.seconds, self.concurrency, self.binary) = (photo, seconds, concurrency, binary)
    }

    /// Runs it and prints the figures through `report`.
    package func run(report: @escaping @Sendable (String) -> Void) async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await temporal.startWorkflow(id: "bench-project")
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("pv-forwarding-bench-\(UUID().uuidString).sqlite")
        // One photo posted again and again: with the duplicate check on, every copy after the first
        // would be duplicate_photo and promise nothing, and the bench would time no forwarding.
        let arguments = ["--port", "0", "--signal-target", "temporal", "--temporal-url", temporal.httpURL, "--outbox", outbox.path,
                         "--duplicates-check", "false"]
        let (_, exit) = try await DaemonProcess.run(arguments, executable: binary.path) { daemon in
            let port = try daemon.port
            report("photo: \(photo.path); concurrency \(concurrency) for \(seconds)s; Temporal dev server on :\(temporal.httpPort)")
            let figures = try await Wrk.run(url: "http://127.0.0.1:\(port)/api/v1/projects/bench-project/photos", connections: concurrency,
                                            seconds: seconds, script: Self.script, environment: ["PHOTO": photo.path])
            report(String(format: "uploads with forwarding on: %.2f/s, p50 %.1f ms, p99 %.1f ms, non-2xx %d",
                          figures["uploads_per_s"] ?? .nan, figures["p50_ms"] ?? .nan, figures["p99_ms"] ?? .nan, Int(figures["non2xx"] ?? 0)))
            for _ in 0..<600 {
                let view = try? await RawHTTP.request(port: port, method: "GET", path: "/v1/outbox")
                let counts = view.flatMap(RawHTTPAnswer.init)?.json?["counts"] as? [String: Any]
                if counts?["pending"] as? Int == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        guard exit.status == 0 else { throw Wrk.Failure(description: "the daemon exited with \(exit.status)") }
        let rows = OutboxRows.rows(of: outbox) ?? [:]
        let latencies = rows.values.compactMap(\.latency).map { $0 * 1000 }.sorted()
        guard !latencies.isEmpty else { throw Wrk.Failure(description: "no delivered signals") }
        func quantile(_ q: Double) -> Double { latencies[min(latencies.count - 1, Int(q * Double(latencies.count - 1)))] }
        report(String(format: "signals delivered: %d (not delivered: %d); promise-to-delivery latency p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                      latencies.count, rows.count - latencies.count, quantile(0.5), quantile(0.99), latencies.last!))
        report("signals in the workflow history: \(try await temporal.signalledPhotoIDs(workflowID: "bench-project").count)")
    }

    /// wrk's script: the photo as a multipart upload, and one RESULT line.
    static let script = """
    local f = assert(io.open(os.getenv("PHOTO"), "rb"))
    local data = f:read("*all")
    f:close()
    local boundary = "pv-bench"
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
    wrk.body = "--" .. boundary .. "\\r\\nContent-Disposition: form-data; name=\\"file\\"; filename=\\"p.jpg\\"\\r\\nContent-Type: image/jpeg\\r\\n\\r\\n"
      .. data .. "\\r\\n--" .. boundary .. "\\r\\nContent-Disposition: form-data; name=\\"photo_type\\"\\r\\n\\r\\nroom\\r\\n--" .. boundary .. "--\\r\\n"
    function done(summary, latency, requests)
      io.write(string.format("RESULT uploads_per_s=%.2f p50_ms=%.1f p99_ms=%.1f non2xx=%d\\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status or 0))
    end
    """
}
