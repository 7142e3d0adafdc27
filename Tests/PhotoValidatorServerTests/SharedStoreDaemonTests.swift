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

    @Test("unset, there is no shared store; set, its password comes from its file, the pool from its size and the bound of each call from its timeout")
    func resolves() async throws {
        #expect(try await resolve([:]).store == nil)
        let file = Fixtures.temporaryPath("store-password")
        try Data("from-the-file\n".utf8).write(to: URL(fileURLWithPath: file))
        let configuration = try await resolve([
            "PHOTO_VALIDATOR_STORE_URL": "postgres://validator@db.internal/rooms", "PHOTO_VALIDATOR_STORE_PASSWORD_FILE": file,
            "PHOTO_VALIDATOR_STORE_POOL_SIZE": "3", "PHOTO_VALIDATOR_STORE_TIMEOUT_SECONDS": "1.5",
        ])
        #expect(configuration.store == SharedStoreSettings(url: "postgres://validator@db.internal/rooms", password: "from-the-file", poolSize: 3, tls: .require,
                                                           timeout: .milliseconds(1500)))
        // Every call to the store is bounded by 2 s unless set.
        #expect(try await resolve(["PHOTO_VALIDATOR_STORE_URL": "postgres://validator@db.internal/rooms"]).store?.timeout == .seconds(2))
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

    @Test("a frozen database (connections open, nothing answers) holds no upload and no /readyz past store.timeout_seconds: 503 store_unavailable within the contract's 3 s, and all is well once it thaws",
          .integration, .enabled(if: PostgresCluster.available, "needs PostgreSQL's server (scripts/setup --test installs it)"))
    func frozenDatabase() async throws {
        try await PostgresCluster.with { cluster in
            let url = try await cluster.createDatabase()
            // A 1 s store timeout, under the default 2 s: the contract's 3 s bound then leaves room for a
            // debug build on a loaded 2-core machine, where the requests' own work takes a second more.
            try await withLiveApp({ $0.store = SharedStoreSettings(url: url, tls: .disable, timeout: .seconds(1)) }) { client, app in
                let store = try #require(app.sharedStore)
                #expect(try await poll { store.readiness == .ready })
                // Pooled connections open and used before the freeze, as in a daemon that has been serving.
                let warm = ContinuousClock.now
                #expect(try await upload(client, project: "before-freeze").status == .ok)
                print("frozen database: an upload before the freeze answered in \(String(format: "%.2f", (ContinuousClock.now - warm).seconds)) s")
                #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
                let port = try #require(client.port)
                var form = MultipartBody()
                // A small photo: little of each answer's time is its own parsing and decoding.
                form.file("file", filename: "photo.jpg", contentType: "image/jpeg", bytes: try testdataBytes("photos/small-indoor-lab.jpg"))
                let (formHeaders, body) = form.finished()
                let frozen = try cluster.freeze()
                let answers: [FrozenAnswer]
                do {
                    // Uploads and readiness checks in flight together, each on its own connection, while the database is frozen.
                    answers = try await withThrowingTaskGroup(of: FrozenAnswer.self) { group in
                        for index in 0..<2 {
                            group.addTask {
                                try await FrozenAnswer.timed("upload \(index)", port: port,
                                                             TestClient.Request("/api/v1/projects/frozen-\(index)/photos", method: .post, headers: formHeaders, body: body))
                            }
                        }
                        group.addTask { try await FrozenAnswer.timed("readyz", port: port, TestClient.Request("/readyz", method: .get)) }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                } catch {
                    cluster.thaw(frozen)
                    throw error
                }
                cluster.thaw(frozen)
                for answer in answers.sorted(by: { $0.what < $1.what }) {
                    print("frozen database: \(answer.what) answered \(answer.status.code) \(answer.code ?? "") in \(String(format: "%.2f", answer.seconds)) s")
                    // The contract's bound.
                    #expect(answer.seconds < 3, "\(answer.what) took \(answer.seconds) s")
                    #expect(answer.status == .serviceUnavailable, "\(answer.what)")
                    if answer.what.hasPrefix("upload") {
                        #expect(answer.code == "store_unavailable" && answer.retryAfter != nil, "\(answer.what): \(answer.code ?? "no code")")
                    }
                }
                // Thawed, the dropped connections are replaced: ready again, and uploads are remembered.
                #expect(try await poll(within: .seconds(30), every: .milliseconds(200)) {
                    try await client.execute(uri: "/readyz", method: .get).status == .ok
                })
                #expect(try await upload(client, project: "after-freeze").status == .ok)
                let again = try jsonObject(try await upload(client, project: "after-freeze"))
                #expect((again["validation"] as? [String: Any])?["failures"] as? [String] == ["duplicate_photo"])
            }
        }
    }
}

/// An answer got while the database was frozen, and how long it took.
private struct FrozenAnswer: Sendable {
    let what: String
    let status: HTTPResponse.Status
    let code: String?
    let retryAfter: String?
    let seconds: Double

    /// Sends `request` on a connection of its own to the daemon on `port` and times the answer.
    static func timed(_ what: String, port: Int, _ request: TestClient.Request) async throws -> FrozenAnswer {
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))) { client in
            let start = ContinuousClock.now
            let response = try await client.execute(request)
            let seconds = (ContinuousClock.now - start).seconds
            let object = response.body.flatMap { try? JSONSerialization.jsonObject(with: Data(buffer: $0)) as? [String: Any] }
            return FrozenAnswer(what: what, status: response.status, code: object?["error"] as? String, retryAfter: response.headers[.retryAfter],
                                seconds: seconds)
        }
    }
}
