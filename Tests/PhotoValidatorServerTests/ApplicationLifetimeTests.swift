import PhotoValidatorCLI
import PhotoValidatorServer
import TestFixtures
import Testing

@Suite("Building the application starts nothing", .timeLimit(.minutes(10)))
struct ApplicationLifetimeTests {
    @Test("an application built with forwarding and the content check on, and never run, holds no HTTP client that must be shut down")
    func builtNeverRun() throws {
        for target in [SignalConfiguration.Target.temporal, .webhook] {
            var configuration = ServiceConfiguration()
            configuration.content.provider = .openai
            configuration.content.baseURL = "http://127.0.0.1:9"
            configuration.content.model = "m"
            configuration.content.policy = .failOpen
            configuration.validation.decodeIsolation = .none
            configuration.signal.target = target
            configuration.signal.temporalURL = "http://127.0.0.1:9"
            configuration.signal.webhookURL = "http://127.0.0.1:9/hook"
            configuration.signal.webhookSecret = "s"
            configuration.signal.outboxPath = Fixtures.temporaryPath("outbox.sqlite")
            // AsyncHTTPClient asserts in deinit when a client was never shut down: a client made at
            // build time would end this test process here.
            let app = try buildApplication(configuration: configuration, logger: testLogger)
            #expect(app.forwarder?.delivery.target.name == target.rawValue)
            #expect(app.service.content != nil && app.contentClient != nil)
        }
    }
}
