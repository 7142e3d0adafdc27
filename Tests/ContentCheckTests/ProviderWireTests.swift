import ContentCheck
import Foundation
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing

@Suite("Provider wire formats against a loopback stand-in", .timeLimit(.minutes(10)))
struct ProviderWireTests {
    @Test("Anthropic: headers, model, a bounded metadata-free JPEG before the question, forced tool use")
    func anthropicRequest() async throws {
        try await withStandIn(.anthropic, script: { _, _ in labels("interior_room") }) { classifier, standIn, _ in
            let result = await check(classifier)
            #expect(result.failure == nil)
            #expect(result.details.outcome == .classified && result.details.verdict == "pass")
            let request = try #require(standIn.received.first)
            #expect(request.headers["x-api-key"] == "test-key")
            #expect(request.headers["anthropic-version"] == "2023-06-01")
            #expect(request.model == "claude-haiku-4-5-20251001")
            #expect(request.mediaType == "image/jpeg")
            #expect(request.toolName == ContentPrompt.toolName)
            #expect(Set(request.requiredFields) == ["scene", "main_subject", "design_related", "reason"])
            #expect(request.question.contains("room"))
            let image = try #require(JPEGInspection(request.image))
            #expect(max(image.width, image.height) <= 1568 && image.width * image.height <= 1_150_000)
            #expect(image.hasNoMetadata, "\(image.metadataSegments)")
            #expect(request.image == cupsPreview.jpeg, "the preview is sent, never the original bytes")
            #expect(request.body.contains("\"tool_choice\""))
            #expect(result.details.inputTokens == ProviderStandIn.imageTokens(request.image) + 420)
            #expect(result.details.outputTokens == 61)
            #expect(result.details.labels?.reason == "a test reason")
        }
    }

    @Test("OpenAI-compatible: bearer key, image_url data URL, json_schema response format")
    func openAIRequest() async throws {
        try await withStandIn(.openai, script: { _, _ in labels("outdoor", "other", design: false) }) { classifier, standIn, _ in
            let result = await check(classifier)
            #expect(result.failure == .contentRejected)
            let request = try #require(standIn.received.first)
            #expect(request.headers["authorization"] == "Bearer test-key")
            #expect(request.model == "qwen2.5-vl-7b-instruct")
            #expect(request.mediaType == "image/jpeg")
            #expect(request.toolName == ContentPrompt.toolName)
            #expect(request.body.contains("\"json_schema\"") && request.body.contains("\"strict\":true"))
            #expect(JPEGInspection(request.image)?.hasNoMetadata == true)
            #expect(result.details.inputTokens != nil && result.details.outputTokens == 61)
        }
    }

    @Test("a wrong key is 401 from the provider and is not retried")
    func wrongKey() async throws {
        try await withStandIn(.anthropic, configure: { $0.apiKey = APIKey("wrong") }, script: { _, _ in labels("interior_room") }) { classifier, standIn, events in
            let result = await check(classifier)
            #expect(result.details.error == "unauthorized")
            #expect(result.details.attempts == 1 && events.retries == 0)
            #expect(result.details.errorDetail?.contains("authentication_error") == true)
            #expect(result.details.errorDetail?.contains("wrong") == false, "the key never appears in details")
            #expect(standIn.received.isEmpty)
        }
    }

    @Test("each verdict maps to the contract's code, per photo type", arguments: [
        (PhotoType.room, "interior_room", "space", true, nil as FailureCode?),
        (.room, "room_dominated_by_people", "people", false, .tooManyPeople),
        (.room, "outdoor", "other", false, .contentRejected),
        (.room, "document", "other", false, .contentRejected),
        (.room, "screenshot", "other", false, .contentRejected),
        (.room, "person_close_up", "people", false, .contentRejected),
        (.room, "animal_close_up", "animal", false, .contentRejected),
        (.inspiration, "object_close_up", "furniture_or_decor", true, nil),
        (.inspiration, "outdoor", "space", true, nil),
        (.inspiration, "interior_room", "animal", true, .contentRejected),
        (.inspiration, "person_close_up", "people", false, .contentRejected),
        (.inspiration, "document", "other", false, .contentRejected),
    ])
    func verdicts(photoType: PhotoType, scene: String, subject: String, design: Bool, expected: FailureCode?) async throws {
        try await withStandIn(.anthropic, script: { _, _ in labels(scene, subject, design: design) }) { classifier, _, _ in
            let result = await check(classifier, as: photoType)
            #expect(result.failure == expected)
            #expect(result.details.verdict == (expected?.rawValue ?? "pass"))
            #expect(result.details.labels?.scene.rawValue == scene)
        }
    }
}
