import ContentCheck
import Foundation
import PhotoValidation
import TestFixtures
import Testing

@Suite("Answers that break the schema or the API's shape are errors, never passes", .timeLimit(.minutes(10)))
struct SchemaTests {
    static let violations = [
        #"{"scene":"kitchen","main_subject":"space","design_related":true,"reason":"x"}"#,
        #"{"scene":"interior_room","main_subject":"space","design_related":true}"#,
        #"{"scene":"interior_room","main_subject":"space","design_related":true,"reason":"x","verdict":"YES"}"#,
        #"{"scene":"interior_room","main_subject":"space","design_related":1,"reason":"x"}"#,
        #"{"scene":"interior_room","main_subject":"space","design_related":"true","reason":"x"}"#,
        #"{"scene":null,"main_subject":"space","design_related":true,"reason":"x"}"#,
        #"["interior_room"]"#,
        #""YES""#,
    ]

    @Test("a schema-violating answer is schema_violation under fail-closed", arguments: [ProviderStandIn.Dialect.anthropic, .openai], violations)
    func violation(dialect: ProviderStandIn.Dialect, answer: String) async throws {
        try await withStandIn(dialect, configure: { $0.policy = .failClosed }, script: { _, _ in .answerJSON(answer) }) { classifier, _, events in
            let result = await check(classifier)
            #expect(result.details.error == "schema_violation")
            #expect(result.failure == .contentCheckUnavailable)
            #expect(result.details.outcome == .failedClosed)
            #expect(events.retries == 0)
        }
    }

    @Test("a body that is not the API's shape is malformed_response", arguments: [
        (ProviderStandIn.Dialect.anthropic, "not json"), (.anthropic, #"{"type":"message"}"#), (.openai, #"{"choices":[]}"#), (.openai, "<html>"),
    ])
    func malformed(dialect: ProviderStandIn.Dialect, body: String) async throws {
        try await withStandIn(dialect, script: { _, _ in .raw(status: 200, body: body) }) { classifier, _, _ in
            let result = await check(classifier)
            #expect(result.details.error == "malformed_response")
            #expect(result.failure == nil && result.details.outcome == .passedOnError)
        }
    }

    @Test("an Anthropic message without the tool call (text instead) is a schema violation")
    func noToolUse() async throws {
        let body = #"{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"YES"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":1}}"#
        try await withStandIn(.anthropic, script: { _, _ in .raw(status: 200, body: body) }) { classifier, _, _ in
            #expect(await check(classifier).details.error == "schema_violation")
        }
    }

    @Test("an OpenAI refusal is its own class, refused, and is not retried")
    func refusal() async throws {
        let body = #"{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help"},"finish_reason":"stop"}]}"#
        try await withStandIn(.openai, script: { _, _ in .raw(status: 200, body: body) }) { classifier, _, events in
            let result = await check(classifier)
            #expect(result.details.error == "refused" && result.details.attempts == 1 && events.retries == 0)
        }
    }
}
