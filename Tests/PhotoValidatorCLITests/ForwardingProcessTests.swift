import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestFixtures
import Testing

@Suite("Signal forwarding survives a killed daemon", .integration, .enabled(if: TemporalDevServer.available, "needs the temporal CLI in .venv: run scripts/test"), .timeLimit(.minutes(10)))
struct ForwardingProcessTests {
    @Test("killed with SIGKILL right after answering 200, the daemon delivers the signal after a restart")
    func survivesSIGKILL() async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await temporal.startWorkflow(id: "project-k")
        // Temporal is down while the photo is accepted, so only the outbox can carry the promise.
        await temporal.stop()
        let outbox = Fixtures.temporaryPath("outbox.sqlite")
        let arguments = ["--port", "0", "--signal-target", "temporal", "--temporal-url", temporal.httpURL, "--outbox", outbox]
        let photo = Array(try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg")))
        let boundary = "pv-kill"
        let form = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + photo + Array("\r\n--\(boundary)--\r\n".utf8)
        let (answer, killed) = try await DaemonProcess.run(arguments) { daemon in
            let answer = try await RawHTTP.request(port: try daemon.port, method: "POST", path: "/api/v1/projects/project-k/photos",
                                                headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"], body: form)
            daemon.send(SIGKILL)
            return answer
        }
        #expect(killed.status == 128 + SIGKILL)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        let body = try #require(answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) })
        let photoID = try #require((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["photo_id"] as? String)

        try await temporal.start()
        let (signals, _) = try await DaemonProcess.run(arguments) { _ in
            let deadline = ContinuousClock.now + .seconds(30)
            var signals: [[String: Any?]] = []
            while ContinuousClock.now < deadline {
                signals = try await temporal.signals(workflowID: "project-k", named: "photo_added")
                if !signals.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return signals.compactMap { $0["photo_id"] as? String }
        }
        #expect(signals == [photoID])
    }
}
