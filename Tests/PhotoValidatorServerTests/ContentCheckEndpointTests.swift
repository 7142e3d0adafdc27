import AsyncHTTPClient
import ContentCheck
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import PhotoValidation
import SignalForwarding
import TestFixtures
import Testing
@testable import PhotoValidatorServer

/// Runs the daemon with its content check pointed at a live provider stand-in answering by `script`.
func withContentApp(
    _ dialect: ProviderStandIn.Dialect = .anthropic,
    configure: @escaping @Sendable (inout ServiceConfiguration) -> Void = { _ in },
    script: @escaping @Sendable (ProviderStandIn.Received, Int) -> ProviderStandIn.Reply,
    _ test: @escaping @Sendable (any TestClientProtocol, PhotoValidatorApp, ProviderStandIn) async throws -> Void
) async throws {
    let standIn = ProviderStandIn(dialect, script: script)
    let provider = Application(router: standIn.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await provider.test(.live) { providerClient in
        let port = try #require(providerClient.port)
        try await withLiveApp({ configuration in
            // Small photos keep these tests fast on a loaded debug build; the 18 MP and HEIC tests
            // use large ones on purpose.
            configuration.validation.roomMinimumShortSide = 300
            configuration.validation.inspirationMinimumShortSide = 300
            configuration.validation.roomBlurThreshold = 0
            configuration.validation.inspirationBlurThreshold = 0
            configuration.content.provider = dialect == .anthropic ? .anthropic : .openai
            configuration.content.baseURL = "http://127.0.0.1:\(port)"
            configuration.content.model = dialect == .anthropic ? ContentCheckConfiguration.defaultAnthropicModel : "llava"
            configuration.content.apiKey = APIKey("test-key")
            configuration.content.policy = .failOpen
            configuration.content.timeout = .seconds(20)
            configuration.content.retryInitialDelay = .milliseconds(10)
            configuration.content.retryMaximumDelay = .milliseconds(40)
            configure(&configuration)
        }) { client, app in
            defer { standIn.stop() }
            try await test(client, app, standIn)
        }
    }
}

/// Posts `file` (a testdata path, or an absolute URL's path) to /v1/validate as `photoType`.
func postValidate(_ client: any TestClientProtocol, _ body: ByteBuffer, as photoType: String = "room") async throws -> [String: Any] {
    let response = try await client.execute(uri: "/v1/validate?photo_type=\(photoType)", method: .post,
                                            headers: [.contentType: "application/octet-stream"], body: body)
    #expect(response.status == .ok)
    return try jsonObject(response)
}

@Suite("Content check on the endpoints", .integration, .serialized, .timeLimit(.minutes(10)))
struct ContentCheckEndpointTests {
    static let verdicts: [(String, String, String, Bool, [String], [String])] = [
        ("room", "interior_room", "space", true, [], ["Photo looks great!"]),
        ("room", "room_dominated_by_people", "people", false, ["too_many_people"], ["This looks like a photo of people, not a room. Please upload a photo of your space."]),
        ("room", "outdoor", "other", false, ["content_rejected"], ["We couldn't identify a room in this photo. Please upload a photo of an interior space."]),
        ("inspiration", "animal_close_up", "animal", false, ["content_rejected"],
         ["Inspiration photos should show spaces, furniture, or design details — not people or animals. Please choose a different image."]),
        ("inspiration", "object_close_up", "furniture_or_decor", true, [], ["Photo looks great!"]),
    ]

    @Test("POST /v1/validate: each verdict with the contract's code and message; reason only in details", arguments: verdicts)
    func validateVerdicts(photoType: String, scene: String, subject: String, design: Bool, failures: [String], messages: [String]) async throws {
        try await withContentApp(script: { _, _ in labels(scene, subject, design: design) }) { client, _, standIn in
            let object = try await postValidate(client, try testdataBytes("variants/same-small.jpg"), as: photoType)
            #expect(object["failures"] as? [String] == failures)
            #expect(object["messages"] as? [String] == messages)
            #expect(object["passed"] as? Bool == failures.isEmpty)
            let details = try #require(object["details"] as? [String: Any])
            let content = try #require(details["content"] as? [String: Any])
            #expect(content["outcome"] as? String == "classified")
            #expect((content["labels"] as? [String: Any])?["reason"] as? String == "reason of the stand-in")
            #expect(!(object["messages"] as? [String] ?? []).joined().contains("reason of the stand-in"))
            let timings = try #require(details["timings_ms"] as? [String: Any])
            #expect(timings["content_preview"] is Double && timings["content"] is Double)
            #expect(standIn.received.count == 1)
        }
    }

    @Test("a photo that fails resolution or blur is never sent to the provider")
    func orderOfChecks() async throws {
        try await withContentApp(configure: {
            $0.validation.roomBlurThreshold = 1e9
            $0.validation.inspirationMinimumShortSide = 1000
        }, script: { _, _ in labels("interior_room") }) { client, _, standIn in
            let blurry = try await postValidate(client, try testdataBytes("photos/small-cat.png"))
            #expect(blurry["failures"] as? [String] == ["blurry"])
            #expect((blurry["details"] as? [String: Any])?["content"] == nil)
            let small = try await postValidate(client, try testdataBytes("photos/small-coffee.png"), as: "inspiration")
            #expect(small["failures"] as? [String] == ["low_resolution"])
            #expect(standIn.received.count == 0)
        }
    }

    @Test("a HEIC photo is classified from a JPEG preview")
    func heic() async throws {
        try await withContentApp(script: { _, _ in labels("interior_room") }) { client, _, standIn in
            let object = try await postValidate(client, try testdataBytes("variants/same-room.heic"), as: "inspiration")
            #expect(object["passed"] as? Bool == true)
            let request = try #require(standIn.received.first)
            #expect(request.mediaType == "image/jpeg")
            let image = try #require(JPEGInspection(request.image))
            #expect(image.hasNoMetadata && max(image.width, image.height) <= 1568)
        }
    }

    @Test("the 18-megapixel JPEG is sent as a bounded preview, not its 2.6 MB original", .enabled(if: Fixtures.sharedRequiredOrPresent, "needs ../shared/photos"))
    func eighteenMegapixels() async throws {
        try await withContentApp(script: { _, _ in labels("interior_room") }) { client, _, standIn in
            let bytes = ByteBuffer(data: try Data(contentsOf: try #require(Fixtures.sharedFile("photos/room-bathroom-1.jpg"))))
            let object = try await postValidate(client, bytes)
            #expect(object["passed"] as? Bool == true)
            let request = try #require(standIn.received.first)
            let image = try #require(JPEGInspection(request.image))
            #expect(image.width * image.height <= 1_150_000 && max(image.width, image.height) <= 1568 && image.height > image.width)
            #expect(image.hasNoMetadata)
            #expect(request.image.count < bytes.readableBytes / 4)
        }
    }

    @Test("fail-closed: a provider error gives content_check_unavailable; fail-open passes and says so")
    func policies() async throws {
        try await withContentApp(configure: { $0.content.policy = .failClosed; $0.content.maximumAttempts = 1 }, script: { _, _ in .error(status: 500) }) { client, _, _ in
            let object = try await postValidate(client, try testdataBytes("variants/same-small.jpg"))
            #expect(object["failures"] as? [String] == ["content_check_unavailable"])
            #expect(object["messages"] as? [String] == ["We couldn't check this photo right now. Please try again in a moment."])
        }
        try await withContentApp(configure: { $0.content.maximumAttempts = 1 }, script: { _, _ in .error(status: 500) }) { client, app, _ in
            let object = try await postValidate(client, try testdataBytes("variants/same-small.jpg"))
            #expect(object["passed"] as? Bool == true)
            let content = try #require((object["details"] as? [String: Any])?["content"] as? [String: Any])
            #expect(content["outcome"] as? String == "passed_on_error" && content["error"] as? String == "server_error")
            let metrics = String(decoding: app.service.metrics.render(), as: UTF8.self)
            #expect(metrics.contains(#"photo_validator_content_checks_total{photo_type="room",verdict="error",outcome="passed_on_error"} 1"#))
            #expect(metrics.contains(#"photo_validator_content_errors_total{error_class="server_error"} 1"#))
        }
    }

    @Test("a provider that refuses every request shows as degraded in /readyz (still 200) and in a gauge; llama.cpp's 500 'image input is not supported' is not retried")
    func refusingProvider() async throws {
        let missingModel = #"{"error":{"message":"The model `llava` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#
        try await withContentApp(.openai, script: { _, _ in .raw(status: 400, body: missingModel) }) { client, app, _ in
            let before = try await client.execute(uri: "/readyz", method: .get)
            #expect(String(buffer: before.body).contains(#""status":"ready""#))
            for _ in 0..<3 {
                let object = try await postValidate(client, try testdataBytes("variants/same-small.jpg"))
                #expect(object["passed"] as? Bool == true, "fail-open still passes the photo")
            }
            let ready = try await client.execute(uri: "/readyz", method: .get)
            let body = String(buffer: ready.body)
            #expect(ready.status == .ok, "degraded is not unready")
            #expect(body.contains(#""status":"degraded""#) && body.contains("does not exist"), "\(body)")
            let metrics = String(decoding: app.service.metrics.render(), as: UTF8.self)
            #expect(metrics.contains("photo_validator_content_provider_refusing 1"))
        }
        let noVision = #"{"error":{"code":500,"message":"image input is not supported - hint: if this is unexpected, you may need to provide the mmproj","type":"server_error"}}"#
        try await withContentApp(.openai, script: { _, _ in .raw(status: 500, body: noVision) }) { client, _, standIn in
            let object = try await postValidate(client, try testdataBytes("variants/same-small.jpg"))
            let content = try #require((object["details"] as? [String: Any])?["content"] as? [String: Any])
            #expect(content["error"] as? String == "bad_request")
            #expect(standIn.received.count == 1, "a configuration error is not retried")
        }
    }

    @Test("per photo type on or off")
    func perPhotoType() async throws {
        try await withContentApp(configure: { $0.content.inspirationEnabled = false }, script: { _, _ in labels("outdoor", "other", design: false) }) { client, _, standIn in
            let object = try await postValidate(client, try testdataBytes("variants/same-small.jpg"), as: "inspiration")
            #expect(object["passed"] as? Bool == true)
            #expect(standIn.received.isEmpty)
        }
    }

    @Test("upload endpoint: a content-rejected photo is answered 200 without a promised signal; a passed one is promised")
    func uploadEndpoint() async throws {
        let outbox = Fixtures.temporaryPath("outbox.sqlite")
        try await withContentApp(configure: {
            $0.signal.target = .webhook
            $0.signal.webhookURL = "http://127.0.0.1:9/hook"
            $0.signal.webhookSecret = "s"
            $0.signal.outboxPath = outbox
        }, script: { request, _ in request.question.contains("inspiration") ? labels("interior_room") : labels("room_dominated_by_people", "people", design: false) }) { client, app, _ in
            var form = MultipartBody()
            form.file("file", filename: "small.jpg", contentType: "image/jpeg", bytes: try testdataBytes("variants/same-small.jpg"))
            let (headers, body) = form.finished()
            let response = try await client.execute(uri: "/api/v1/projects/proj-1/photos", method: .post, headers: headers, body: body)
            #expect(response.status == .ok)
            let validation = try #require(try jsonObject(response)["validation"] as? [String: Any])
            #expect(validation["failures"] as? [String] == ["too_many_people"])
            var counts = try await app.forwarder!.outbox!.counts()
            #expect(counts.pending + counts.delivered + counts.dead == 0, "nothing promised for a rejected photo")

            var inspiration = MultipartBody()
            inspiration.field("photo_type", "inspiration")
            inspiration.file("file", filename: "small.jpg", contentType: "image/jpeg", bytes: try testdataBytes("variants/same-small.jpg"))
            let (headers2, body2) = inspiration.finished()
            let passed = try await client.execute(uri: "/api/v1/projects/proj-1/photos", method: .post, headers: headers2, body: body2)
            #expect((try jsonObject(passed)["validation"] as? [String: Any])?["passed"] as? Bool == true)
            counts = try await app.forwarder!.outbox!.counts()
            #expect(counts.pending + counts.delivered + counts.dead == 1)
        }
    }

    @Test("32 parallel uploads: all answered, provider calls capped, cache shares one answer per photo")
    func parallelUploads() async throws {
        try await withContentApp(configure: {
            $0.queueLimit = 40
            $0.content.maximumConcurrentCalls = 4
            $0.content.queueWait = .seconds(60)
            $0.content.timeout = .seconds(60)
        }, script: { _, _ in .delayed(.milliseconds(100), then: .init(labels("interior_room"))) }) { client, app, standIn in
            // Distinct bytes per upload (a trailing comment after EOI) so the cache does not answer.
            let original = try Data(contentsOf: Fixtures.testdataFile("variants/same-small.jpg"))
            // Its own client with a long deadline: 32 validations share two workers on a loaded machine.
            let port = try #require(client.port)
            var httpConfiguration = HTTPClient.Configuration()
            httpConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
            let uploads = await withThrowingTaskGroup(of: (Int, Bool).self) { group -> Result<[(Int, Bool)], any Error> in
                for index in 0..<32 {
                    group.addTask {
                        var form = MultipartBody()
                        form.field("photo_type", "inspiration")
                        form.file("file", filename: "p.jpg", contentType: "image/jpeg", bytes: ByteBuffer(data: original + Data("\(index)".utf8)))
                        let (headers, body) = form.finished()
                        // One project each: copies of one photo in one project would be duplicate_photo.
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/projects/p-\(index)/photos")
                        request.method = .POST
                        request.headers.add(name: "content-type", value: headers[.contentType]!)
                        request.body = .bytes(body)
                        let response = try await http.execute(request, deadline: .now() + .seconds(240))
                        let answer = try await response.body.collect(upTo: 1 << 20)
                        let object = try JSONSerialization.jsonObject(with: Data(buffer: answer)) as? [String: Any]
                        return (Int(response.status.code), (object?["validation"] as? [String: Any])?["passed"] as? Bool ?? false)
                    }
                }
                do {
                    return .success(try await group.reduce(into: []) { $0.append($1) })
                } catch {
                    return .failure(error)
                }
            }
            try await http.shutdown()
            let statuses = try uploads.get()
            #expect(statuses.count == 32 && statuses.allSatisfy { $0.0 == 200 && $0.1 })
            #expect(standIn.received.count == 32)
            #expect(standIn.peakConcurrency <= 4)
            _ = app
        }
    }

    @Test("a repeated upload is answered from the cache")
    func cacheAcrossRequests() async throws {
        try await withContentApp(script: { _, _ in labels("interior_room") }) { client, app, standIn in
            _ = try await postValidate(client, try testdataBytes("variants/same-small.jpg"))
            let second = try await postValidate(client, try testdataBytes("variants/same-small.jpg"))
            #expect(((second["details"] as? [String: Any])?["content"] as? [String: Any])?["cached"] as? Bool == true)
            #expect(standIn.received.count == 1)
            let metrics = String(decoding: app.service.metrics.render(), as: UTF8.self)
            #expect(metrics.contains(#"photo_validator_content_cache_lookups_total{result="hit"} 1"#))
            #expect(metrics.contains("photo_validator_content_input_tokens_total"))
        }
    }

    @Test("a keyed upload's one hash is the cache key: the same photo validated afterwards is answered from the cache")
    func keyedUploadSharesTheCache() async throws {
        try await withContentApp(configure: {
            $0.signal.target = .webhook
            $0.signal.webhookURL = "http://127.0.0.1:9/hook"
            $0.signal.webhookSecret = "s"
            $0.signal.outboxPath = Fixtures.temporaryPath("outbox.sqlite")
        }, script: { _, _ in labels("interior_room") }) { client, _, standIn in
            let photo = try testdataBytes("variants/same-small.jpg")
            var form = MultipartBody()
            form.file("file", filename: "small.jpg", contentType: "image/jpeg", bytes: photo)
            var (headers, body) = form.finished()
            headers[.idempotencyKey] = "upload-1"
            let uploaded = try await client.execute(uri: "/api/v1/projects/proj-1/photos", method: .post, headers: headers, body: body)
            #expect(uploaded.status == .ok)
            let validated = try await postValidate(client, photo)
            #expect(((validated["details"] as? [String: Any])?["content"] as? [String: Any])?["cached"] as? Bool == true)
            #expect(standIn.received.count == 1)
        }
    }
}

/// A successful reply with these labels and a fixed reason.
func labels(_ scene: String, _ subject: String = "space", design: Bool = true) -> ProviderStandIn.Reply {
    .labels(scene: scene, mainSubject: subject, designRelated: design, reason: "reason of the stand-in")
}
