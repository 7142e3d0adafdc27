import Foundation
import TestFixtures
import Testing

@Suite("the README's configuration reference", .timeLimit(.minutes(10)))
struct ConfigurationReferenceTests {
    @Test("equals what `photo-validator config` lists (scripts/config-reference)")
    func readmeMatchesConfig() async throws {
        let script = Fixtures.repositoryRoot.appendingPathComponent("scripts/config-reference")
        let generated = try await ProcessRunner.run(script, [ProcessRunner.photoValidatorExecutable.path])
        #expect(generated.status == 0, "\(generated.standardError)")
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- config-reference:begin (scripts/config-reference --write) -->\n"))
        let end = try #require(readme.range(of: "<!-- config-reference:end -->", range: begin.upperBound..<readme.endIndex))
        let documented = String(readme[begin.upperBound..<end.lowerBound])
        #expect(documented == generated.standardOutput,
                "README.md's configuration reference differs from `photo-validator config`: run scripts/config-reference --write")
        #expect(generated.standardOutput.contains("| `outbox.path` | `PHOTO_VALIDATOR_OUTBOX_PATH` |"))
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
