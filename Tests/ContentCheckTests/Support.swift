import AsyncHTTPClient
import ContentCheck
import Foundation
import Hummingbird
import HummingbirdTesting
import ImageCodecs
import PhotoFormat
import PhotoValidation
import Synchronization
import TestFixtures
import Testing

/// A configuration with short deadlines and backoffs, so resilience tests take milliseconds.
func fastConfiguration(_ provider: ContentProviderKind, baseURL: String, policy: ContentCheckPolicy = .failOpen) -> ContentCheckConfiguration {
    var configuration = ContentCheckConfiguration()
    configuration.provider = provider
    configuration.baseURL = baseURL
    configuration.model = provider == .anthropic ? ContentCheckConfiguration.defaultAnthropicModel : "qwen2.5-vl-7b-instruct"
    configuration.apiKey = APIKey("test-key")
    configuration.policy = policy
    // Generous: the tests share two cores with other builds; timing tests set their own.
    configuration.timeout = .seconds(30)
    configuration.retryInitialDelay = .milliseconds(10)
    configuration.retryMaximumDelay = .milliseconds(40)
    configuration.breakerFailureThreshold = 50
    configuration.breakerOpenDuration = .milliseconds(300)
    configuration.queueWait = .milliseconds(500)
    return configuration
}

/// Events a classifier reported, for assertions on what metrics would see.
final class EventLog: Sendable {
    private let events = Mutex<[ContentCheckEvent]>([])
    func record(_ event: ContentCheckEvent) { events.withLock { $0.append(event) } }
    var all: [ContentCheckEvent] { events.withLock { $0 } }
    var retries: Int { all.filter { if case .retry = $0 { true } else { false } }.count }
}

/// Runs `body` with a live stand-in for `dialect` answering by `script`, and a classifier
/// configured by `configure` pointing at it.
func withStandIn(
    _ dialect: ProviderStandIn.Dialect,
    configure: @escaping @Sendable (inout ContentCheckConfiguration) -> Void = { _ in },
    script: @escaping @Sendable (ProviderStandIn.Received, Int) -> ProviderStandIn.Reply,
    _ body: @escaping @Sendable (ContentClassifier, ProviderStandIn, EventLog) async throws -> Void
) async throws {
    let standIn = ProviderStandIn(dialect, script: script)
    let app = Application(router: standIn.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
        let port = try #require(client.port)
        var configuration = fastConfiguration(dialect == .anthropic ? .anthropic : .openai, baseURL: "http://127.0.0.1:\(port)")
        configure(&configuration)
        let events = EventLog()
        let http = ContentClientService.makeClient()
        let classifier = try #require(ContentClassifier.make(configuration: configuration, previews: PreviewBounds(), client: http) { events.record($0) })
        do {
            try await body(classifier, standIn, events)
        } catch {
            standIn.stop()
            try? await http.shutdown()
            throw error
        }
        standIn.stop()
        try await http.shutdown()
    }
}

/// The preview of a testdata photo, made once.
let cupsPreview: PreviewImage = {
    let data = try! Data(contentsOf: Fixtures.testdataFile("photos/cups.jpg"))
    return try! data.withUnsafeBytes { try PreviewEncoder().preview(of: $0, format: .jpeg) }
}()

/// Checks `cupsPreview` with `classifier`, under a fresh digest unless one is given.
func check(_ classifier: ContentClassifier, as photoType: PhotoType = .room, digest: String = UUID().uuidString) async -> ContentCheckResult {
    await classifier.check(preview: .success(cupsPreview), digest: digest, as: photoType)
}

/// A successful reply with these labels.
func labels(_ scene: String, _ subject: String = "space", design: Bool = true, reason: String = "a test reason") -> ProviderStandIn.Reply {
    .labels(scene: scene, mainSubject: subject, designRelated: design, reason: reason)
}
