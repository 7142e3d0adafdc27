import Configuration
import ContentCheck
import Foundation
import PhotoValidation
import TestFixtures
import Testing
import ValidatorConfiguration
@testable import PhotoValidatorServer

@Suite("systemd's StateDirectory= and LoadCredential= reach the configuration", .timeLimit(.minutes(10)))
struct ServiceManagerEnvironmentTests {
    /// The service configuration and audit for `environment`, read as `serve` reads it.
    func resolve(_ environment: [String: String]) async throws -> (ServiceConfiguration, ConfigurationAudit) {
        let manager = ServiceManagerEnvironment(environment: environment)
        let audit = ConfigurationAudit()
        let reader = ConfigurationSources.reader(flags: [:], environment: environment, credentials: try await ConfigurationSources.credentials(environment: environment),
                                                 fallback: manager.defaults, audit: audit)
        let configuration = try ServiceConfiguration(reader: reader)
        try audit.checkConversions()
        return (configuration, audit)
    }

    /// A new folder holding `files` (name to content).
    func folder(_ files: [String: String]) throws -> String {
        let path = Fixtures.temporaryPath("credentials")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, content) in files {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent(name))
        }
        return path
    }

    @Test("the outbox defaults to the first $STATE_DIRECTORY, and says so; an explicit path wins")
    func outboxFollowsStateDirectory() async throws {
        let (plain, _) = try await resolve([:])
        #expect(plain.signal.outboxPath == "photo-validator-outbox.sqlite")

        let (managed, audit) = try await resolve(["STATE_DIRECTORY": "/var/lib/photo-validator:/var/lib/other"])
        #expect(managed.signal.outboxPath == "/var/lib/photo-validator/outbox.sqlite")
        let entry = try #require(audit.entries.first { $0.key == "outbox.path" })
        #expect(entry.source == "STATE_DIRECTORY")

        let (explicit, _) = try await resolve(["STATE_DIRECTORY": "/var/lib/photo-validator", "PHOTO_VALIDATOR_OUTBOX_PATH": "/srv/outbox.sqlite"])
        #expect(explicit.signal.outboxPath == "/srv/outbox.sqlite")
    }

    @Test("files in $CREDENTIALS_DIRECTORY set the secret keys they are named after (the key with dashes), trimmed and redacted")
    func credentialsAreSecrets() async throws {
        #expect(ConfigurationSources.credentialFileName(for: "temporal.api_key") == "temporal-api-key")
        let directory = try folder(["auth-token": "tok-from-credential\n", "temporal-api-key": "key-1", "webhook-secret": " hmac-key "])
        let (configuration, audit) = try await resolve(["CREDENTIALS_DIRECTORY": directory])
        #expect(configuration.authToken == "tok-from-credential")
        #expect(configuration.signal.temporalAPIKey == "key-1")
        #expect(configuration.signal.webhookSecret == "hmac-key")
        let entry = try #require(audit.entries.first { $0.key == "auth.token" })
        #expect(entry.source == "credentials")
        #expect(entry.value == "<redacted>")
    }

    @Test("the environment beats a credential")
    func environmentWins() async throws {
        let directory = try folder(["auth-token": "from-credential"])
        let (configuration, _) = try await resolve(["CREDENTIALS_DIRECTORY": directory, "PHOTO_VALIDATOR_AUTH_TOKEN": "from-environment"])
        #expect(configuration.authToken == "from-environment")
    }

    @Test("a missing credentials folder or an empty credential stops with an error naming it")
    func unusableCredentials() async throws {
        await #expect {
            _ = try await ConfigurationSources.credentials(environment: ["CREDENTIALS_DIRECTORY": "/nonexistent/credentials"])
        } throws: { error in
            "\(error)".contains("CREDENTIALS_DIRECTORY") && "\(error)".contains("LoadCredential=")
        }
        // An empty token file must not leave the daemon open to everyone.
        let directory = try folder(["auth-token": "\n"])
        await #expect {
            _ = try await resolve(["CREDENTIALS_DIRECTORY": directory])
        } throws: { error in
            "\(error)".contains("auth.token") && "\(error)".contains("non-empty")
        }
    }

    @Test("resolution reads only the environment it is given: nothing but the CLI's entry points reads the process's own")
    func processEnvironmentIsNotRead() async throws {
        // setenv in this multi-threaded test process races every getenv (it crashed a run), so the
        // process environment is shown unread by the sources instead: only the commands' entry
        // points may read it and hand it to resolution (and a decode worker, to report that its
        // own is empty).
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var readers: [String] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let relative = url.path.replacingOccurrences(of: sources.path + "/", with: "")
            if text.contains("processInfo.environment"), !relative.hasPrefix("PhotoValidatorCLI/Commands/"), !relative.hasPrefix("TestFixtures/"),
               !relative.hasPrefix("ValidatorHarness/"), relative != "DecodeWorker/DecodeWorkerHost.swift" {
                readers.append(relative)
            }
        }
        #expect(readers.isEmpty, "library code reads the process environment: \(readers)")
        let credentials = try folder(["content-api-key": "sk-from-somewhere"])
        let (configuration, _) = try await ServiceConfiguration.resolve(flags: [:], configFile: nil, environment: [:])
        #expect(configuration.content.provider == ContentProviderKind.none && configuration.content.apiKey == nil)
        // The same variables, given to resolution, do take effect.
        let (given, _) = try await ServiceConfiguration.resolve(
            flags: [:], configFile: nil,
            environment: ["PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "CREDENTIALS_DIRECTORY": credentials]
        )
        #expect(given.content.provider == .anthropic && given.content.apiKey != nil)
    }
}
