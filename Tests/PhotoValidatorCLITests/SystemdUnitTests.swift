import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestFixtures
import Testing

/// Whether this machine can build the hand-made sandbox of `systemd/run-sandboxed`: root, and
/// allowed to create a mount namespace (an unprivileged container is not).
let sandboxAvailable: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    probe.arguments = ["--mount", "--propagation", "private", "/bin/true"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}()

@Suite("systemd/photo-validator.service", .integration, .timeLimit(.minutes(10)))
struct SystemdUnitTests {
    static let folder = Fixtures.repositoryRoot.appendingPathComponent("systemd")

    @Test("systemd-analyze verify is clean and the exposure is 2.0 or lower",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") || Fixtures.peersRequired, "needs systemd-analyze (apt-get install systemd; scripts/setup --test installs it)"))
    func analyzed() async throws {
        let outcome = try await ProcessRunner.run(Self.folder.appendingPathComponent("check-unit"), [])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let exposure = try #require(Double(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "exposure ", with: "")))
        #expect(exposure <= 2.0)
    }

    @Test("under the unit's restrictions (read-only /, a dynamic user, state and credentials directories) the daemon forwards photo_added to Temporal",
          .enabled(if: sandboxAvailable && TemporalDevServer.available, "needs root with mount namespaces, and the temporal CLI in .venv"))
    func forwardsUnderRestrictions() async throws {
        let temporal = try TemporalDevServer()
        try await temporal.start()
        defer { Task { await temporal.stop() } }
        try await temporal.startWorkflow(id: "project-sandboxed")

        let base = URL(fileURLWithPath: Fixtures.temporaryPath("sandbox"))
        let state = base.appendingPathComponent("state"), credentials = base.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        try Data("sandbox-token\n".utf8).write(to: credentials.appendingPathComponent("auth-token"))
        // As systemd would, the sandbox binds the built binary read-only where ExecStart= runs it, so
        // a checkout under /tmp or a home folder (hidden by PrivateTmp=, ProtectHome=) works too.
        let unit = try String(contentsOf: Self.folder.appendingPathComponent("photo-validator.service"), encoding: .utf8)
        let execStart = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let installed = String(execStart.dropFirst("ExecStart=".count).split(separator: " ")[0])
        let sandbox = [Self.folder.appendingPathComponent("run-sandboxed").path, "--executable", ProcessRunner.photoValidatorExecutable.path,
                       state.path, credentials.path, "--"]

        // The restrictions hold: / is read-only, the state directory is writable, the user is not root.
        let probe = try await ProcessRunner.run(URL(fileURLWithPath: sandbox[0]), Array(sandbox.dropFirst()) + [
            "/bin/sh", "-c", #"! touch /photo-validator-probe 2>/dev/null && touch "$STATE_DIRECTORY/probe" && rm "$STATE_DIRECTORY/probe" && id -u"#,
        ])
        #expect(probe.status == 0, "\(probe.standardError)")
        #expect(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "61873")
        #expect(installed == "/usr/local/bin/photo-validator")

        // No outbox path: it must follow $STATE_DIRECTORY, and the token comes from the credential.
        let photo = Array(try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg")))
        let boundary = "pv-sandbox"
        let form = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + photo + Array("\r\n--\(boundary)--\r\n".utf8)
        let upload = ["Content-Type: multipart/form-data; boundary=\(boundary)"]
        let (result, exit) = try await DaemonProcess.run(["--port", "0", "--signal-target", "temporal", "--temporal-url", temporal.httpURL],
                                                         launcher: sandbox, executable: installed) { daemon in
            let port = try daemon.port
            let health = try await RawHTTP.request(port: port, method: "GET", path: "/healthz")
            let ready = try await RawHTTP.request(port: port, method: "GET", path: "/readyz", headers: ["Authorization: Bearer sandbox-token"])
            let refused = try await RawHTTP.request(port: port, method: "POST", path: "/api/v1/projects/project-sandboxed/photos", headers: upload, body: form)
            let answer = try await RawHTTP.request(port: port, method: "POST", path: "/api/v1/projects/project-sandboxed/photos",
                                                   headers: upload + ["Authorization: Bearer sandbox-token"], body: form)
            let body = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
            let photoID = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["photo_id"] as? String
            let deadline = ContinuousClock.now + .seconds(30)
            var delivered: [String] = []
            while ContinuousClock.now < deadline, photoID != nil {
                delivered = try await temporal.signals(workflowID: "project-sandboxed", named: "photo_added").compactMap { $0["photo_id"] as? String }
                if !delivered.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return (health: health, ready: ready, refused: refused, answer: answer, photoID: photoID, delivered: delivered)
        }
        #expect(result.health.hasPrefix("HTTP/1.1 200"), "\(result.health.prefix(200))")
        #expect(result.ready.hasPrefix("HTTP/1.1 200"), "\(result.ready.prefix(300))")
        #expect(result.refused.hasPrefix("HTTP/1.1 401"), "\(result.refused.prefix(200))")
        #expect(result.answer.hasPrefix("HTTP/1.1 200"), "\(result.answer.prefix(300))\n\(exit.log.suffix(20).joined(separator: "\n"))")
        let photoID = try #require(result.photoID)
        #expect(result.delivered == [photoID])
        #expect(exit.status == 0, "\(exit.log.suffix(20).joined(separator: "\n"))")

        // The outbox is where systemd keeps state, owned by the service's user, private (UMask=0077).
        let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent("outbox.sqlite").path)
        #expect((attributes[.ownerAccountID] as? NSNumber)?.intValue == 61873)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
