import Configuration
import Foundation
import Hummingbird
import HummingbirdTesting
import PhotoValidatorCLI
import SharedStore
import TestFixtures
import Testing
import ValidatorConfiguration
@testable import PhotoValidatorServer

/// `store.url` as the daemon takes it: read with its password from a file, refused without echoing
/// a secret, and, on a real PostgreSQL cluster, migrated at start and watched by /readyz.
@Suite("The shared store's settings and readiness")
struct SharedStoreDaemonTests {
    /// The service configuration `environment` resolves to, as `serve` reads it.
    func resolve(_ environment: [String: String]) async throws -> ServiceConfiguration {
        let reader = ConfigurationSources.reader(flags: [:], environment: environment, credentials: try await ConfigurationSources.credentials(environment: environment),
                                                 fallback: ServiceManagerEnvironment(environment: environment).defaults, audit: ConfigurationAudit())
        return try ServiceConfiguration(reader: reader)
    }

    @Test("unset, there is no shared store; set, its password comes from its file and the pool from its size")
    func resolves() async throws {
        #expect(try await resolve([:]).store == nil)
        let file = Fixtures.temporaryPath("store-password")
        try Data("from-the-file\n".utf8).write(to: URL(fileURLWithPath: file))
        let configuration = try await resolve([
            "PHOTO_VALIDATOR_STORE_URL": "postgres://validator@db.internal/rooms", "PHOTO_VALIDATOR_STORE_PASSWORD_FILE": file,
            "PHOTO_VALIDATOR_STORE_POOL_SIZE": "3",
        ])
        #expect(configuration.store == SharedStoreSettings(url: "postgres://validator@db.internal/rooms", password: "from-the-file", poolSize: 3, tls: .require))
    }

    @Test("a URL that names no PostgreSQL database is refused, and the message shows no password")
    func refuses() async throws {
        await #expect {
            _ = try await resolve(["PHOTO_VALIDATOR_STORE_URL": "mysql://validator:pw-secret@db/rooms"])
        } throws: { error in
            "\(error)".contains("store.url") && !"\(error)".contains("pw-secret")
        }
    }

    @Test("with store.url, forwarding promises in the shared outbox and opens no outbox file of its own")
    func opensNoOutboxFile() throws {
        var configuration = ServiceConfiguration()
        configuration.validation.decodeIsolation = .none
        configuration.store = SharedStoreSettings(url: "postgres://validator@127.0.0.1:9/rooms", tls: .disable)
        configuration.signal.target = .webhook
        configuration.signal.webhookURL = "http://127.0.0.1:9/hook"
        configuration.signal.webhookSecret = "s"
        let outboxPath = Fixtures.temporaryPath("unused-outbox.sqlite")
        configuration.signal.outboxPath = outboxPath
        let app = try buildApplication(configuration: configuration, logger: testLogger)
        let forwarder = try #require(app.forwarder)
        #expect(forwarder.shared != nil && forwarder.outbox == nil)
        #expect(!FileManager.default.fileExists(atPath: outboxPath))
        // Without the store the same settings open the file: the check above can fail.
        configuration.store = nil
        let local = try buildApplication(configuration: configuration, logger: testLogger)
        #expect(local.forwarder?.outbox != nil && FileManager.default.fileExists(atPath: outboxPath))
    }

    @Test("readyz waits for the schema, says why while the database is down (uploads and DELETE get 503 store_unavailable), and recovers when it returns",
          .integration, .enabled(if: PostgresCluster.available, "needs PostgreSQL's server (scripts/setup --test installs it)"))
    func readiness() async throws {
        try await PostgresCluster.with { cluster in
            let url = try await cluster.createDatabase()
            try await withLiveApp({ $0.store = SharedStoreSettings(url: url, tls: .disable) }) { client, app in
                let store = try #require(app.sharedStore)
                #expect(try await poll { store.readiness == .ready })
                #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
                await cluster.stop()
                let down = try await client.execute(uri: "/readyz", method: .get)
                #expect(down.status == .serviceUnavailable)
                let reasons = try jsonObject(down)["reasons"] as? String ?? ""
                #expect(reasons.contains("store:") && reasons.contains("shared store"), "\(reasons)")
                // An upload that would compare and remember, and a DELETE, are refused as retryable.
                let refused = try await upload(client, project: "outage")
                try expectError(refused, status: .serviceUnavailable, code: "store_unavailable")
                #expect(refused.headers[.retryAfter] != nil)
                let forget = try await client.execute(uri: "/api/v1/projects/outage/photos/p1", method: .delete)
                try expectError(forget, status: .serviceUnavailable, code: "store_unavailable")
                try await cluster.start()
                #expect(try await poll(within: .seconds(15), every: .milliseconds(200)) {
                    try await client.execute(uri: "/readyz", method: .get).status == .ok
                })
                // Back, the same photo is accepted and then remembered in the shared store.
                #expect(try await upload(client, project: "outage").status == .ok)
                let again = try jsonObject(try await upload(client, project: "outage"))
                #expect((again["validation"] as? [String: Any])?["failures"] as? [String] == ["duplicate_photo"])
            }
        }
    }
}
