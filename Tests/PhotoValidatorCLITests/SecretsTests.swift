import Foundation
import TestFixtures
import Testing

@Suite("Secrets stay secret", .integration, .timeLimit(.minutes(10)))
struct SecretsTests {
    @Test("with every secret set, none appears in a log line, an error answer, a metric or an admin view")
    func noSecretAnywhere() async throws {
        let secrets = ["tok-Aa11", "hookuser-Bb22", "hookpass-Cc33", "qtoken-Dd44", "hmac-Ee55", "llmkey-Ff66", "llmpass-Gg77", "tkey-Hh88"]
        let token = secrets[0]
        let environment = [
            "PHOTO_VALIDATOR_AUTH_TOKEN": token,
            "PHOTO_VALIDATOR_LOG_LEVEL": "debug",
            "PHOTO_VALIDATOR_SIGNAL_TARGET": "webhook",
            // Port 9 on loopback is closed: every delivery fails, and its error is shown.
            "PHOTO_VALIDATOR_WEBHOOK_URL": "http://\(secrets[1]):\(secrets[2])@127.0.0.1:9/hook?token=\(secrets[3])",
            "PHOTO_VALIDATOR_WEBHOOK_SECRET": secrets[4],
            "PHOTO_VALIDATOR_OUTBOX_PATH": Fixtures.temporaryPath("outbox.sqlite"),
            "PHOTO_VALIDATOR_OUTBOX_MAX_AGE_HOURS": "0.0003",
            "PHOTO_VALIDATOR_OUTBOX_RETRY_INITIAL_SECONDS": "0.1",
            "PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic",
            "PHOTO_VALIDATOR_CONTENT_API_KEY": secrets[5],
            "PHOTO_VALIDATOR_CONTENT_BASE_URL": "http://llm:\(secrets[6])@127.0.0.1:9/",
            "PHOTO_VALIDATOR_CONTENT_MAX_ATTEMPTS": "1",
            "PHOTO_VALIDATOR_TEMPORAL_API_KEY": secrets[7],
        ]
        let photo = Array(try Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg")))
        let boundary = "pv-secrets"
        let form = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + photo + Array("\r\n--\(boundary)--\r\n".utf8)
        let authorized = "Authorization: Bearer \(token)"
        let (answers, exit) = try await DaemonProcess.run(["--port", "0"], environment: environment) { daemon in
            let port = try daemon.port
            var answers: [String] = []
            answers.append(try await RawHTTP.request(port: port, method: "POST", path: "/api/v1/projects/project-s/photos",
                                                     headers: [authorized, "Content-Type: multipart/form-data; boundary=\(boundary)"], body: form))
            answers.append(try await RawHTTP.request(port: port, method: "GET", path: "/v1/outbox", headers: ["Authorization: Bearer wrong"]))
            answers.append(try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate", headers: [authorized], body: Array("GIF89a".utf8)))
            // Wait until the signal has failed and been given up, so its reason is in the admin view.
            let deadline = ContinuousClock.now + .seconds(30)
            var outbox = ""
            while ContinuousClock.now < deadline {
                outbox = try await RawHTTP.request(port: port, method: "GET", path: "/v1/outbox", headers: [authorized])
                if outbox.contains("\"dead\":1") { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            answers.append(outbox)
            for path in ["/metrics", "/readyz", "/healthz", "/openapi.yaml"] {
                answers.append(try await RawHTTP.request(port: port, method: "GET", path: path, headers: [authorized]))
            }
            return answers
        }
        #expect(answers[0].hasPrefix("HTTP/1.1 200"), "\(answers[0].prefix(400))")
        #expect(answers[1].hasPrefix("HTTP/1.1 401"))
        #expect(answers[3].contains("\"dead\":1") && answers[3].contains("cannot reach the webhook at http://<redacted>@127.0.0.1:9/hook?token=<redacted>"),
                "\(answers[3].prefix(800))")
        #expect(exit.log.contains { $0.contains("<redacted>@127.0.0.1:9") }, "the delivery failure is logged")
        for (index, text) in (answers + exit.log).enumerated() {
            for secret in secrets {
                #expect(!text.contains(secret), "secret \(secret) in \(index < answers.count ? "answer \(index)" : "the log"): \(text.prefix(600))")
            }
        }
    }
}
