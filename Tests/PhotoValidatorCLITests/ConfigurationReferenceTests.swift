import Foundation
import TestFixtures
import Testing

@Suite("docs/settings.md's settings table", .integration, .timeLimit(.minutes(10)))
struct ConfigurationReferenceTests {
    @Test("docs/settings.md's settings table equals `photo-validator config --markdown`")
    func documentMatchesConfig() async throws {
        let generated = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config", "--markdown"], environment: [:])
        #expect(generated.status == 0, "\(generated.standardError)")
        let document = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/settings.md"), encoding: .utf8)
        let begin = try #require(document.range(of: "<!-- config-reference:begin (scripts/config-reference --write) -->\n"))
        let end = try #require(document.range(of: "<!-- config-reference:end -->", range: begin.upperBound..<document.endIndex))
        let documented = String(document[begin.upperBound..<end.lowerBound])
        #expect(documented == generated.standardOutput,
                "docs/settings.md's settings table differs from `photo-validator config --markdown`: run scripts/config-reference --write")
        #expect(generated.standardOutput.contains("| `outbox.path` | `PHOTO_VALIDATOR_OUTBOX_PATH` | `--outbox` |"))
        #expect(generated.standardOutput.contains("| `room.blur_threshold` | `PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD` | `--room-blur-threshold` | 24 |"))
        #expect(generated.standardOutput.contains("| `limits.admission_wait_seconds` | `PHOTO_VALIDATOR_LIMITS_ADMISSION_WAIT_SECONDS` | `--admission-wait-seconds` | 10 |"))
        #expect(generated.standardOutput.contains("| `auth.token` | `PHOTO_VALIDATOR_AUTH_TOKEN` | — | — |"), "a secret is never a flag")
    }

    @Test("every setting but a secret has a flag, and `serve --help` lists each; `serve` takes each (here through `config`)")
    func everyFlagListed() async throws {
        let table = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config", "--markdown"])
        let rows = table.standardOutput.split(separator: "\n").dropFirst(2).map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.count > 50)
        let help = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["serve", "--help"], environment: ["COLUMNS": "300"])
        // Hidden from --help: switches for tests, not for operators.
        let hidden: Set<String> = ["`decode_worker_executable`", "`decode_worker_test_requests`"]
        for row in rows where !hidden.contains(row[0]) && row[0] != "`webhook.url`" {
            let secret = row[4].contains("secret")
            #expect((row[2] == "—") == secret, "\(row[0]): a flag exactly when it is not a secret (webhook.url, redacted but settable, aside)")
            if row[2] != "—" {
                let flag = row[2].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                #expect(help.standardOutput.contains("\n  \(flag) <"), "serve --help lists \(flag)")
            }
        }
        let set = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config", "--content-room=false", "--limits-retry-after-seconds", "3"])
        #expect(set.status == 2, "a derived flag name that is not the setting's flag is refused")
        let given = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config", "--content-room=false", "--retry-after", "3"])
        #expect(given.status == 0, "\(given.standardError)")
        #expect(given.standardOutput.contains("flag"))
    }

    @Test("every environment variable `serve --help` and `validate --help` name is a configuration key's")
    func helpNamesKeys() async throws {
        let config = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config"])
        let variables = Set(config.standardOutput.split(separator: "\n").dropFirst().compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        })
        #expect(variables.contains("PHOTO_VALIDATOR_HTTP_PORT"))
        var named = Set<String>()
        for command in ["serve", "validate"] {
            let help = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, [command, "--help"])
            named.formUnion(help.standardOutput.matches(of: #/PHOTO_VALIDATOR_[A-Z0-9_]*[A-Z0-9]/#).map { String($0.output) })
        }
        #expect(!named.isEmpty)
        let unknown = named.subtracting(variables).subtracting(["PHOTO_VALIDATOR_CONFIG_FILE"])
        #expect(unknown.isEmpty, "named in --help but not a key of `config`: \(unknown.sorted())")
    }
}
