import Foundation
import TestFixtures
import Testing

@Suite("photo-validator config under systemd", .integration, .timeLimit(.minutes(10)))
struct ServiceManagerConfigTests {
    @Test("the outbox follows $STATE_DIRECTORY and credentials set secrets, both named as sources")
    func stateAndCredentials() async throws {
        let credentials = Fixtures.temporaryPath("credentials")
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try Data("credential-secret\n".utf8).write(to: URL(fileURLWithPath: credentials).appendingPathComponent("temporal-api-key"))
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config"],
                                                  environment: ["STATE_DIRECTORY": "/var/lib/photo-validator", "CREDENTIALS_DIRECTORY": credentials])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        func row(_ key: String) -> [String] {
            outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix(key + " ") }.map { $0.split(separator: " ").map(String.init) } ?? []
        }
        #expect(row("outbox.path").prefix(4) == ["outbox.path", "PHOTO_VALIDATOR_OUTBOX_PATH", "/var/lib/photo-validator/outbox.sqlite", "STATE_DIRECTORY"])
        #expect(row("temporal.api_key").prefix(4) == ["temporal.api_key", "PHOTO_VALIDATOR_TEMPORAL_API_KEY", "<redacted>", "credentials"])
        #expect(!outcome.standardOutput.contains("credential-secret"))
    }

    @Test("a credentials folder that cannot be read stops serve with exit 2 and says what to check")
    func unreadableCredentials() async throws {
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["serve"], environment: ["CREDENTIALS_DIRECTORY": "/nonexistent/credentials"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("CREDENTIALS_DIRECTORY"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("LoadCredential="))
    }
}
