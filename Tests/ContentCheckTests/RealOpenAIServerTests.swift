import ContentCheck
import Foundation
import PhotoFormat
import PhotoValidation
import TestFixtures
import Testing

/// The OpenAI-compatible provider against a real server, not only the stand-in: llama-cpp-python's
/// server (llama.cpp underneath) with a tiny model whose grammar-constrained answers follow the
/// schema. A text model cannot see the image part: the server takes the request whole and its chat
/// template drops the image, so the image path itself is tested against the stand-in.
@Suite("A real llama.cpp server answers the classification", .integration,
       .enabled(if: LlamaCppServer.available, "needs llama-cpp-python in .venv: run scripts/setup --test"), .timeLimit(.minutes(10)))
struct RealOpenAIServerTests {
    @Test("the request is taken, the grammar from the schema makes the answer, and it is read into a verdict")
    func classification() async throws {
        let server = try LlamaCppServer()
        try await server.start()
        // Stopped before the test returns: a stop left to an unstructured task may never run
        // before the test process exits, and the server outlived the run.
        do {
            for style in [ResponseFormatStyle.jsonObject, .jsonSchema] {
                var configuration = fastConfiguration(.openai, baseURL: server.baseURL, policy: .failClosed)
                configuration.model = server.model
                configuration.apiKey = nil
                configuration.responseFormat = style
                configuration.maximumAttempts = 1
                let http = ContentClientService.makeClient()
                let classifier = try #require(ContentClassifier.make(configuration: configuration, previews: PreviewBounds(), client: http))
                let result = await check(classifier)
                try await http.shutdown()
                switch style {
                case .jsonObject:
                    // The tiny model's best-scored letters spell a valid answer: the verdict depends on
                    // the weights, not on understanding, but every field was read from a real server.
                    #expect(result.details.outcome == .classified, "\(String(describing: result.details.error)): \(String(describing: result.details.errorDetail))")
                    #expect(result.details.labels != nil && result.details.verdict != nil)
                    #expect(result.details.inputTokens ?? 0 > 0 && result.details.outputTokens ?? 0 > 0, "usage is reported")
                    print("real llama.cpp server (json_object): labels \(String(describing: result.details.labels)), verdict \(result.details.verdict ?? "-"), "
                        + "tokens \(result.details.inputTokens ?? 0) in / \(result.details.outputTokens ?? 0) out")
                case .jsonSchema:
                    // llama-cpp-python 0.3 refuses OpenAI's json_schema form: content.response_format
                    // json_object is the setting for it, and the refusal is a clear error, never a pass.
                    #expect(result.details.outcome != .classified)
                    #expect(result.details.errorDetail?.contains("json_object") == true, "\(String(describing: result.details.errorDetail))")
                    #expect(result.failure == .contentCheckUnavailable)
                    print("real llama.cpp server (json_schema): \(result.details.errorDetail?.prefix(160) ?? "-")")
                }
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
