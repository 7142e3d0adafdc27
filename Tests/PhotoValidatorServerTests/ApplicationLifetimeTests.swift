import PhotoValidatorServer
import TestFixtures
import Testing

@Suite("Building the application starts nothing", .timeLimit(.minutes(10)))
struct ApplicationLifetimeTests {
    @Test("an application built with forwarding on and never run holds no HTTP client that must be shut down")
    func builtNeverRun() throws {
        for target in [SignalConfiguration.Target.temporal, .webhook] {
            var configuration = ServiceConfiguration()
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
        }
    }
}
