import SharedStore
import Testing

/// `store.url` as the daemon reads it: TCP and Unix-socket URLs, defaults, and refusals that never echo a password.
@Suite struct SharedStoreEndpointTests {
    @Test func tcpURLGivesHostPortUserAndDatabase() throws {
        let endpoint = try SharedStoreEndpoint(url: "postgres://validator:s%40cret@db.internal:6432/rooms")
        #expect(endpoint.username == "validator")
        #expect(endpoint.password == "s@cret")
        #expect(endpoint.database == "rooms")
        #expect(endpoint.location == .tcp(host: "db.internal", port: 6432))
        #expect(!endpoint.description.contains("s@cret") && !endpoint.description.contains("s%40cret"))
    }

    @Test func socketFolderAsLibpqTakesIt() throws {
        let endpoint = try SharedStoreEndpoint(url: "postgresql://postgres@/photos?host=/run/postgresql")
        #expect(endpoint.location == .socket(path: "/run/postgresql/.s.PGSQL.5432"))
        #expect(endpoint.password == nil)
    }

    @Test func databaseDefaultsToTheUsersName() throws {
        let endpoint = try SharedStoreEndpoint(url: "postgres://validator@db:5432")
        #expect(endpoint.database == "validator")
        #expect(endpoint.location == .tcp(host: "db", port: 5432))
    }

    @Test(arguments: ["mysql://u@h/d", "postgres://h/d", "postgres://u@/d", "not a url", ""])
    func refusesURLsThatNameNoPostgreSQLDatabase(_ url: String) {
        #expect(throws: SharedStoreError.self) { try SharedStoreEndpoint(url: url) }
    }

    @Test func refusalDoesNotEchoThePassword() {
        do {
            _ = try SharedStoreEndpoint(url: "postgres://:hunter2@db/d")
            Issue.record("a URL without a user was accepted")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func passwordSettingWinsOverTheURLs() throws {
        let settings = SharedStoreSettings(url: "postgres://u:inurl@db/d", password: "fromfile", poolSize: 3, tls: .disable)
        let configuration = try settings.clientConfiguration()
        #expect(configuration.password == "fromfile")
        #expect(configuration.options.maximumConnections == 3)
        #expect(configuration.host == "db")
    }
}
