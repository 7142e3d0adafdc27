import Configuration
import ContentCheck
import Foundation
import PhotoValidation
import TestFixtures
import Testing
import ValidatorConfiguration

/// The content configuration `environment` (PHOTO_VALIDATOR_* variables) resolves to.
func resolve(_ environment: [String: String], audit: ConfigurationAudit = ConfigurationAudit()) throws -> ContentCheckConfiguration {
    let reader = ConfigurationSources.reader(flags: [:], environment: environment, audit: audit)
    let configuration = try ContentCheckConfiguration(reader: reader)
    try audit.checkConversions()
    return configuration
}

@Suite("Content check configuration", .timeLimit(.minutes(10)))
struct ConfigurationTests {
    @Test("no provider: policy off, nothing checked")
    func defaultsOff() throws {
        let configuration = try resolve([:])
        #expect(configuration.provider == .none && configuration.policy == .off)
        #expect(!configuration.isEnabled(for: .room) && !configuration.isEnabled(for: .inspiration))
    }

    @Test("anthropic with a key: fail-open, Haiku 4.5, api.anthropic.com, both photo types, 10 s deadline")
    func anthropicDefaults() throws {
        let configuration = try resolve(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY": "sk-secret"])
        #expect(configuration.policy == .failOpen)
        #expect(configuration.model == "claude-haiku-4-5-20251001")
        #expect(configuration.baseURL == "https://api.anthropic.com")
        #expect(configuration.apiKey?.value == "sk-secret")
        #expect(configuration.timeout == .seconds(10))
        #expect(configuration.isEnabled(for: .room) && configuration.isEnabled(for: .inspiration))
    }

    @Test("the key is never in descriptions, dumps or the audit")
    func redaction() throws {
        let audit = ConfigurationAudit()
        let configuration = try resolve(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY": "sk-secret"], audit: audit)
        #expect(!"\(configuration)".contains("sk-secret"))
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("sk-secret"))
        let entry = try #require(audit.entries.first { $0.key == "content.api_key" })
        #expect(entry.value == "<redacted>")
    }

    @Test("the key comes from a file, or from the credentials directory's content-api-key, as every secret does")
    func keyFiles() async throws {
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("creds"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("from-file\n".utf8).write(to: folder.appendingPathComponent("key"))
        try Data("from-credentials\n".utf8).write(to: folder.appendingPathComponent("content-api-key"))
        let fromFile = try resolve(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY_FILE": folder.appendingPathComponent("key").path])
        #expect(fromFile.apiKey?.value == "from-file")
        let environment = ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "CREDENTIALS_DIRECTORY": folder.path]
        let reader = ConfigurationSources.reader(flags: [:], environment: environment,
                                                 credentials: try await ConfigurationSources.credentials(environment: environment), audit: ConfigurationAudit())
        #expect(try ContentCheckConfiguration(reader: reader).apiKey?.value == "from-credentials")
        try Data("\n".utf8).write(to: folder.appendingPathComponent("key"))
        #expect(throws: ConfigurationError(source: "content.api_key_file", value: folder.appendingPathComponent("key").path, expected: "a file holding a non-empty value")) {
            try resolve(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY_FILE": folder.appendingPathComponent("key").path])
        }
    }

    @Test("OpenAI-compatible servers need a model but no key; a base URL ending in /v1 is accepted")
    func openAI() throws {
        #expect(throws: ConfigurationError.self) { try resolve(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "openai"]) }
        let configuration = try resolve(["PHOTO_VALIDATOR_CONTENT_PROVIDER": "openai", "PHOTO_VALIDATOR_CONTENT_MODEL": "llava",
                                         "PHOTO_VALIDATOR_CONTENT_BASE_URL": "http://127.0.0.1:11434/", "PHOTO_VALIDATOR_CONTENT_POLICY": "fail-closed",
                                         "PHOTO_VALIDATOR_CONTENT_INSPIRATION": "false"])
        #expect(configuration.apiKey == nil && configuration.baseURL == "http://127.0.0.1:11434")
        #expect(configuration.policy == .failClosed)
        #expect(configuration.isEnabled(for: .room) && !configuration.isEnabled(for: .inspiration))
    }

    @Test("unusable values are errors naming the key", arguments: [
        ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "gemini"],
        ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic"],
        ["PHOTO_VALIDATOR_CONTENT_POLICY": "fail-open"],
        ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY": "k", "PHOTO_VALIDATOR_CONTENT_POLICY": "sometimes"],
        ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY": "k", "PHOTO_VALIDATOR_CONTENT_BASE_URL": "ftp://x"],
        ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY": "k", "PHOTO_VALIDATOR_CONTENT_TIMEOUT_SECONDS": "soon"],
    ])
    func invalid(environment: [String: String]) {
        #expect(throws: ConfigurationError.self) { try resolve(environment) }
    }

    @Test("the evaluation helpers: expected outcomes, confusion matrix, cost, percentiles")
    func evaluation() {
        #expect(ContentEvaluation.expectedOutcome("pass") == "pass")
        #expect(ContentEvaluation.expectedOutcome("content_rejected") == "content_rejected")
        #expect(ContentEvaluation.expectedOutcome("low_resolution+blurry") == nil)
        var evaluation = ContentEvaluation(model: "m", inputPrice: 1, outputPrice: 5)
        func sample(_ expected: String, verdict: String?, ms: Double) -> ContentEvaluation.Sample {
            var details = ContentCheckDetails(outcome: verdict == nil ? .passedOnError : .classified, provider: "anthropic", model: "m", policy: "fail-open")
            details.verdict = verdict
            details.inputTokens = 2000
            details.outputTokens = 100
            return .init(path: "p", photoType: .room, expected: expected, result: ContentCheckResult(failure: nil, details: details, milliseconds: ms))
        }
        evaluation.add(sample("pass", verdict: "pass", ms: 100))
        evaluation.add(sample("content_rejected", verdict: "pass", ms: 200))
        evaluation.add(sample("content_rejected", verdict: nil, ms: 300))
        evaluation.add(sample("too_many_people", verdict: "too_many_people", ms: 400))
        let matrix = evaluation.confusionMatrix(for: .room)
        #expect(matrix["content_rejected"]?["pass"] == 1 && matrix["content_rejected"]?["error"] == 1 && matrix["pass"]?["pass"] == 1)
        #expect(evaluation.accuracy(for: .room) == 0.5)
        #expect(abs(evaluation.estimatedCost - (8000 * 1 + 400 * 5) / 1e6) < 1e-12)
        #expect(evaluation.latencyPercentile(50) == 200 && evaluation.latencyPercentile(100) == 400)
        #expect(evaluation.report.contains("accuracy 0.500"))
    }
}
