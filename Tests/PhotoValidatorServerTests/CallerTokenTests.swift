import Configuration
import Foundation
import TestFixtures
import Testing
import ValidatorConfiguration
@testable import PhotoValidatorServer

@Suite("Named bearer tokens and the fairness warning")
struct CallerTokenTests {
    /// The service configuration `environment` resolves to, as `serve` reads it.
    func resolve(_ environment: [String: String]) async throws -> ServiceConfiguration {
        let reader = ConfigurationSources.reader(flags: [:], environment: environment, credentials: try await ConfigurationSources.credentials(environment: environment),
                                                 fallback: ServiceManagerEnvironment(environment: environment).defaults, audit: ConfigurationAudit())
        return try ServiceConfiguration(reader: reader)
    }

    @Test("name:token entries separated by commas, spaces or new lines")
    func parses() throws {
        let tokens = try CallerToken.list("gateway:g-1,batch-import:b:2\n  web.v2:w3 ", source: "auth.tokens")
        #expect(tokens == [CallerToken(name: "gateway", token: "g-1"), CallerToken(name: "batch-import", token: "b:2"), CallerToken(name: "web.v2", token: "w3")])
    }

    @Test("a malformed entry, a repeated name or token is refused, and the message shows no token", arguments: [
        ("gateway", "name:token"), (":tok-secret", "a name of 1"), ("bad!:tok-secret", "a name of 1"), ("gw:", "non-empty token"),
        ("a:tok-secret,a:tok-other", "each caller named once"), ("a:tok-secret,b:tok-secret", "a token of its own"),
    ])
    func refuses(_ text: String, _ expected: String) {
        #expect {
            try CallerToken.list(text, source: "auth.tokens")
        } throws: { error in
            "\(error)".contains("auth.tokens") && "\(error)".contains(expected) && !"\(error)".contains("tok-secret") && !"\(error)".contains("tok-other")
        }
    }

    @Test("auth.tokens is read from the environment or its file, beside auth.token, which must differ from each")
    func resolves() async throws {
        let configuration = try await resolve(["PHOTO_VALIDATOR_AUTH_TOKENS": "gateway:g-1, batch:b-2", "PHOTO_VALIDATOR_AUTH_TOKEN": "shared"])
        #expect(configuration.callerTokens.map(\.name) == ["gateway", "batch"] && configuration.authToken == "shared")
        let file = Fixtures.temporaryPath("tokens")
        try Data("gateway:g-1\nbatch:b-2\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(try await resolve(["PHOTO_VALIDATOR_AUTH_TOKENS_FILE": file]).callerTokens.map(\.token) == ["g-1", "b-2"])
        #expect(try await resolve([:]).callerTokens.isEmpty)
        await #expect {
            try await resolve(["PHOTO_VALIDATOR_AUTH_TOKENS": "gateway:same", "PHOTO_VALIDATOR_AUTH_TOKEN": "same"])
        } throws: { error in
            "\(error)".contains("auth.tokens") && "\(error)".contains("other than auth.token") && !"\(error)".contains("same")
        }
    }

    @Test("a warning at start names limits.client_header and what to set when it is unset; none when it is set")
    func fairnessWarning() {
        var configuration = ServiceConfiguration()
        let warning = PhotoValidatorApp.fairnessWarning(configuration)
        #expect(warning?.contains("limits.client_header is not set") == true)
        #expect(warning?.contains("--client-header") == true && warning?.contains("PHOTO_VALIDATOR_LIMITS_CLIENT_HEADER") == true)
        #expect(warning?.contains("per peer network (IPv4 /24, IPv6 /64)") == true && warning?.contains("auth.tokens") == false)
        configuration.callerTokens = [CallerToken(name: "gateway", token: "g")]
        #expect(PhotoValidatorApp.fairnessWarning(configuration)?.contains("per auth.tokens name") == true)
        configuration.clientHeader = "X-User-Id"
        #expect(PhotoValidatorApp.fairnessWarning(configuration) == nil)
    }
}
