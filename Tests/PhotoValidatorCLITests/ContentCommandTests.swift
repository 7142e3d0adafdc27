import Foundation
import Hummingbird
import HummingbirdTesting
import TestFixtures
import Testing

/// Runs `body` with a live Anthropic stand-in answering by `script`, and the environment that
/// points the binary's content check at it.
func withAnthropicStandIn(
    script: @escaping @Sendable (ProviderStandIn.Received, Int) -> ProviderStandIn.Reply,
    _ body: @escaping @Sendable ([String: String], ProviderStandIn) async throws -> Void
) async throws {
    let standIn = ProviderStandIn(.anthropic, script: script)
    let app = Application(router: standIn.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
        let port = try #require(client.port)
        try await body([
            "PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic",
            "PHOTO_VALIDATOR_CONTENT_BASE_URL": "http://127.0.0.1:\(port)",
            "PHOTO_VALIDATOR_CONTENT_API_KEY": "test-key",
            "PHOTO_VALIDATOR_ROOM_BLUR_THRESHOLD": "0",
            "PHOTO_VALIDATOR_INSPIRATION_BLUR_THRESHOLD": "0",
            // Small photos keep the commands fast on a loaded debug build.
            "PHOTO_VALIDATOR_ROOM_MIN_SIDE": "350",
            "PHOTO_VALIDATOR_CONTENT_TIMEOUT_SECONDS": "60",
        ], standIn)
        standIn.stop()
    }
}

@Suite("Content check in the commands", .integration, .timeLimit(.minutes(10)))
struct ContentCommandTests {
    @Test("validate --content-check applies each verdict; without the flag nothing is sent")
    func validateWithContentCheck() async throws {
        try await withAnthropicStandIn(script: { request, _ in
            // The stand-in tells photos apart by the preview's size: cups.jpg is landscape.
            let landscape = (JPEGInspection(request.image).map { $0.width > $0.height }) ?? false
            return landscape ? .labels(scene: "outdoor", mainSubject: "other", designRelated: false, reason: "outside")
                : .labels(scene: "room_dominated_by_people", mainSubject: "people", designRelated: false, reason: "a party")
        }) { environment, standIn in
            let files = [Fixtures.testdataFile("variants/same-small.jpg").path, Fixtures.testdataFile("variants/rotated-6.jpg").path,
                         Fixtures.testdataFile("photos/small-cat.png").path]
            let off = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["validate", "--format", "jsonl", "--no-progress", "--validation-timeout", "300"] + files, environment: environment)
            #expect(standIn.received.isEmpty, "off by default: it costs money")
            #expect(!off.standardOutput.contains("\"content\""))

            let on = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable,
                                                 ["validate", "--format", "jsonl", "--no-progress", "--validation-timeout", "300", "--content-check"] + files, environment: environment)
            #expect(on.status == 1, "\(on.standardError)")
            let records = try jsonLines(on.standardOutput)
            #expect(records.count == 3)
            let byName = Dictionary(uniqueKeysWithValues: records.map { (URL(fileURLWithPath: $0["path"] as! String).lastPathComponent, $0) })
            #expect(byName["same-small.jpg"]?["failures"] as? [String] == ["content_rejected"])
            #expect(byName["same-small.jpg"]?["messages"] as? [String] == ["We couldn't identify a room in this photo. Please upload a photo of an interior space."])
            #expect(byName["small-cat.png"]?["failures"] as? [String] == ["low_resolution"], "not sent: it failed an earlier check")
            #expect(byName["rotated-6.jpg"]?["failures"] as? [String] == ["too_many_people"], "portrait as displayed: EXIF orientation applied")
            let content = (byName["same-small.jpg"]?["details"] as? [String: Any])?["content"] as? [String: Any]
            #expect((content?["labels"] as? [String: Any])?["reason"] as? String == "outside")
            #expect(standIn.received.count == 2)
        }
    }

    @Test("validate --content-check without a provider is a usage error")
    func validateNeedsProvider() async throws {
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable,
                                                  ["validate", "--content-check", Fixtures.testdataFile("photos/cups.jpg").path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("needs a provider"))
    }

    @Test("evaluate-content prints a confusion matrix per photo type, tokens, cost and latency")
    func evaluateContent() async throws {
        let scratch = try ScratchFolder()
        try scratch.copy("variants/same-small.jpg", to: "cups.jpg")
        try scratch.copy("variants/same-room.heic", to: "room.heic")
        try scratch.copy("photos/small-coffee.png", to: "small.png")
        try scratch.write("""
            file,subject,room_expected,inspiration_expected
            cups.jpg,objects,content_rejected,pass
            room.heic,room,pass,pass
            small.png,interior-detail,low_resolution,pass

            """, to: "manifest.csv")
        let manifest = scratch.url.appendingPathComponent("manifest.csv").path
        try await withAnthropicStandIn(script: { _, _ in
            .labels(scene: "interior_room", mainSubject: "space", designRelated: true, reason: "looks like a room")
        }) { environment, standIn in
            let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable,
                                                      ["evaluate-content", manifest], environment: environment)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let report = outcome.standardOutput
            #expect(report.contains("model claude-haiku-4-5-20251001"))
            #expect(report.contains("room: 2 photos judged, 1 left out"))
            #expect(report.contains("inspiration: 3 photos judged, 0 left out"))
            #expect(report.contains("accuracy 0.500") && report.contains("accuracy 1.000"))
            #expect(report.contains("tokens:") && report.contains("estimated cost: $") && report.contains("latency ms: p50"))
            #expect(report.contains("room cups.jpg: expected content_rejected, got pass"))
            #expect(standIn.received.count == 5, "every photo is a call: nothing is cached")
        }
    }

    @Test("config shows the content keys with the key redacted")
    func configRedacts() async throws {
        let outcome = try await ProcessRunner.run(ProcessRunner.photoValidatorExecutable, ["config"], environment: [
            "PHOTO_VALIDATOR_CONTENT_PROVIDER": "anthropic", "PHOTO_VALIDATOR_CONTENT_API_KEY": "sk-ant-very-secret",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("sk-ant-very-secret"))
        let line = try #require(outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("content.api_key ") })
        #expect(line.contains("<redacted>") && line.contains("PHOTO_VALIDATOR_CONTENT_API_KEY"))
        #expect(outcome.standardOutput.contains("content.policy"))
    }
}
