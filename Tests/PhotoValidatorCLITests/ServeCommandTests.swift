import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestFixtures
import Testing

/// The daemon tests talk HTTP to the child process with `RawHTTP`, a raw-socket client, so a
/// request can be left half-sent on purpose.
@Suite("photo-validator serve, as a process", .integration, .timeLimit(.minutes(10)))
struct ServeCommandTests {
    @Test("SIGTERM lets a request in flight finish with 200, then the daemon exits 0")
    func gracefulShutdown() async throws {
        let photo = try Data(contentsOf: Fixtures.testdataFile("photos/outdoor-dandelions-bokeh.jpg"))
        // The rate rule is off (0): under a full run's load this test's two short sleeps have taken 15 s, and the
        // half-sent body was then rightly refused as too slow, which is not what this test is about.
        let (answer, exit) = try await DaemonProcess.run(["--port", "0", "--workers", "1", "--log-format", "json", "--min-body-rate", "0"]) { daemon in
            // The request is in flight while its body is still arriving: send the head and half
            // the body, signal, then send the rest. The answer must still come.
            let socket = try await RawHTTP.connect(port: try daemon.port)
            defer { close(socket) }
            let bytes = Array(photo)
            try await RawHTTP.write(socket, RawHTTP.head(method: "POST", path: "/v1/validate?photo_type=room", length: bytes.count) + bytes[..<(bytes.count / 2)])
            try await Task.sleep(for: .milliseconds(300))
            daemon.send(SIGTERM)
            try await Task.sleep(for: .milliseconds(300))
            try await RawHTTP.write(socket, Array(bytes[(bytes.count / 2)...]))
            return try await RawHTTP.readAll(socket)
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        #expect(answer.contains("\"passed\":true"))
        #expect(exit.status == 0, "\(exit.log.suffix(10))")
        #expect(exit.log.contains { $0.contains("\"route\":\"/v1/validate\"") && $0.contains("\"status\":\"200\"") })
    }

    @Test("listens on a Unix domain socket as well as TCP")
    func unixSocket() async throws {
        let socket = Fixtures.temporaryPath("http.sock")
        let (answer, exit) = try await DaemonProcess.run(["--port", "0", "--unix-socket", socket]) { daemon in
            _ = try daemon.port
            let listening = try await poll { FileManager.default.fileExists(atPath: socket) }
            #expect(listening)
            return try await RawHTTP.request(unixSocket: socket, method: "GET", path: "/healthz")
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(answer.contains("{\"status\":\"ok\"}"))
        #expect(exit.status == 0)
    }

    @Test("one log line per request, in JSON, without image bytes or the token")
    func requestLog() async throws {
        let (_, exit) = try await DaemonProcess.run(["--port", "0", "--log-format", "json"], environment: ["PHOTO_VALIDATOR_AUTH_TOKEN": "tok-123456"]) { daemon in
            let port = try daemon.port
            _ = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=inspiration",
                                       headers: ["Authorization: Bearer tok-123456", "X-Request-ID: gw-42"],
                                       body: Array(try Data(contentsOf: Fixtures.testdataFile("photos/small-coffee.png"))))
            return 0
        }
        let lines = exit.log.filter { $0.contains("\"message\":\"request\"") }
        #expect(lines.count == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["request_id"] as? String == "gw-42")
        #expect(object["photo_type"] as? String == "inspiration")
        #expect(object["outcome"] as? String == "passed")
        #expect(object["status"] as? String == "200")
        #expect(object["timings_ms"] is [String: Any])
        #expect(!exit.log.joined().contains("tok-123456"))
    }
}

@Suite("photo-validator config", .integration, .timeLimit(.minutes(10)))
struct ConfigCommandTests {
    @Test("flags beat the environment, which beats the JSON file; secrets are redacted")
    func precedence() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pv-config-\(UUID().uuidString).json")
        try Data(#"{"http": {"port": 7000, "host": "0.0.0.0"}, "room": {"min_side": 900}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = ["PHOTO_VALIDATOR_HTTP_PORT": "7100", "PHOTO_VALIDATOR_AUTH_TOKEN": "very-secret"]
        func row(_ output: String, _ key: String) -> [String] {
            output.split(separator: "\n").first { $0.hasPrefix(key + " ") }.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        let flagged = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config", "--config", file.path, "--port", "7200"], environment: environment)
        #expect(flagged.status == 0, "\(flagged.standardError)")
        #expect(row(flagged.standardOutput, "http.port").prefix(4) == ["http.port", "PHOTO_VALIDATOR_HTTP_PORT", "7200", "flag"])
        #expect(row(flagged.standardOutput, "http.host").prefix(4) == ["http.host", "PHOTO_VALIDATOR_HTTP_HOST", "0.0.0.0", "file"])
        #expect(row(flagged.standardOutput, "room.min_side")[2] == "900")
        #expect(row(flagged.standardOutput, "auth.token").prefix(4) == ["auth.token", "PHOTO_VALIDATOR_AUTH_TOKEN", "<redacted>", "environment"])
        #expect(!flagged.standardOutput.contains("very-secret"))

        let fromEnvironment = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config", "--config", file.path], environment: environment)
        #expect(row(fromEnvironment.standardOutput, "http.port")[2] == "7100")
        let fromFile = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config"], environment: ["PHOTO_VALIDATOR_CONFIG_FILE": file.path])
        #expect(row(fromFile.standardOutput, "http.port")[2] == "7000")
        // A key nothing set shows its resolved default, its source and the flag that sets it; a secret has no flag.
        #expect(row(fromFile.standardOutput, "limits.admission_wait_seconds").prefix(5)
            == ["limits.admission_wait_seconds", "PHOTO_VALIDATOR_LIMITS_ADMISSION_WAIT_SECONDS", "10", "default", "--admission-wait-seconds"])
        #expect(row(fromFile.standardOutput, "temporal.api_key").prefix(5) == ["temporal.api_key", "PHOTO_VALIDATOR_TEMPORAL_API_KEY", "-", "default", "-"])
        #expect(row(fromFile.standardOutput, "room.blur_threshold").prefix(5)
            == ["room.blur_threshold", "PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD", "24", "default", "--room-blur-threshold"])
    }

    @Test("a port in use says so and names --port, exit 1")
    func portInUse() async throws {
        let (outcome, _) = try await DaemonProcess.run(["--port", "0", "--outbox", Fixtures.temporaryPath("first.sqlite")]) { daemon in
            try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable,
                                        ["serve", "--port", String(try daemon.port), "--outbox", Fixtures.temporaryPath("second.sqlite")])
        }
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("already in use"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("--port"), "\(outcome.standardError)")
    }

    @Test("an unusable value stops with a message naming the key, exit 2")
    func badValue() async throws {
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["serve"], environment: ["PHOTO_VALIDATOR_HTTP_PORT": "eighty"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("invalid value for http.port (from environment)"))
        #expect(outcome.standardError.contains("PHOTO_VALIDATOR_HTTP_PORT"))
        #expect(!outcome.standardError.contains("Usage"), "a setting's error is not a usage error: \(outcome.standardError)")
        let range = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["serve", "--port", "70000"])
        #expect(range.status == 2)
        #expect(range.standardError.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("http.port: expected a whole number from 0 to 65535"),
                "\(range.standardError)")
    }
}
