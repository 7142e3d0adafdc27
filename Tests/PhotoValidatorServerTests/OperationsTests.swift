import Foundation
import Hummingbird
import HummingbirdTesting
import LumaAnalysis
import NIOCore
import PhotoValidation
import TestFixtures
import Testing
@testable import PhotoValidatorServer

@Suite("Health, readiness, metrics, the API description and errors", .timeLimit(.minutes(10)))
struct OperationsTests {
    @Test("healthz and readyz answer 200 when the daemon can work")
    func probes() async throws {
        try await withLiveApp { client, _ in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            #expect(try jsonObject(health)["status"] as? String == "ok")
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok)
            #expect(try jsonObject(ready)["status"] as? String == "ready")
        }
    }

    @Test("an unknown route is 404 and a wrong method 405 with Allow, both in the error shape")
    func unknownRoutes() async throws {
        try await withLiveApp { client, _ in
            try expectError(try await client.execute(uri: "/v2/nothing", method: .get), status: .notFound, code: "not_found")
            let wrongMethod = try await client.execute(uri: "/v1/validate", method: .get)
            try expectError(wrongMethod, status: .methodNotAllowed, code: "method_not_allowed")
            #expect(wrongMethod.headers[.allow] == "POST")
            let wrongUpload = try await client.execute(uri: "/api/v1/projects/abc/photos", method: .delete)
            try expectError(wrongUpload, status: .methodNotAllowed, code: "method_not_allowed")
        }
    }

    @Test("X-Request-ID is echoed when plain, and generated otherwise")
    func requestID() async throws {
        try await withLiveApp { client, _ in
            let echoed = try await client.execute(uri: "/healthz", method: .get, headers: [ObservabilityMiddleware.requestIDHeader: "gw-1234.abc"])
            #expect(echoed.headers[ObservabilityMiddleware.requestIDHeader] == "gw-1234.abc")
            let replaced = try await client.execute(uri: "/healthz", method: .get, headers: [ObservabilityMiddleware.requestIDHeader: "bad id\u{7F}"])
            let generated = try #require(replaced.headers[ObservabilityMiddleware.requestIDHeader])
            #expect(UUID(uuidString: generated) != nil)
        }
    }

    @Test("/metrics is Prometheus text and counts what happened")
    func metrics() async throws {
        try await withLiveApp { client, _ in
            _ = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, body: try testdataBytes("photos/cups.jpg"))
            _ = try await client.execute(uri: "/v1/validate?photo_type=room", method: .post, body: try testdataBytes("photos/small-coffee.png"))
            _ = try await client.execute(uri: "/v1/validate?photo_type=inspiration", method: .post, body: try testdataBytes("bad-inputs/text-named.jpg"))
            _ = try await client.execute(uri: "/nowhere", method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            let samples = try PrometheusText.parse(text)
            #expect(samples["photo_validator_validations_total{photo_type=\"room\",outcome=\"passed\"}"] == 1)
            #expect(samples["photo_validator_validations_total{photo_type=\"room\",outcome=\"failed\"}"] == 1)
            #expect(samples["photo_validator_validations_total{photo_type=\"inspiration\",outcome=\"failed\"}"] == 1)
            #expect(samples["photo_validator_validation_failures_total{photo_type=\"room\",code=\"low_resolution\"}"] == 1)
            #expect(samples["photo_validator_validation_failures_total{photo_type=\"inspiration\",code=\"invalid_image\"}"] == 1)
            #expect(samples["photo_validator_http_requests_total{route=\"/v1/validate\",method=\"POST\",status=\"200\"}"] == 3)
            #expect(samples["photo_validator_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"}"] == 1)
            #expect(samples["photo_validator_validation_stage_duration_seconds_count{stage=\"decode\"}"] == 3)
            #expect(samples["photo_validator_validations_in_flight"] == 0)
            #expect(samples["photo_validator_validations_queued"] == 0)
            #expect(samples["photo_validator_upload_memory_reserved_bytes"] == 0)
            #expect(samples["photo_validator_uploads_waiting"] == 0)
        }
    }

    @Test("the OpenAPI document describes exactly the routes served")
    func openAPIMatchesRoutes() async throws {
        try await withLiveApp { client, app in
            let response = try await client.execute(uri: "/openapi.yaml", method: .get)
            #expect(response.status == .ok)
            let document = String(buffer: response.body)
            #expect(document.hasPrefix("openapi: 3.1.0"))
            let served = Set(app.routes.routes.map { "\($0.method.rawValue.lowercased()) \($0.path)" })
            #expect(Set(OpenAPIPaths.operations(in: document)) == served)
        }
    }

    @Test("the OpenAPI document's code enums are exactly the codes answered: FailureCode and APIError.Code")
    func openAPIEnumsMatchCodes() throws {
        let failures = try #require(OpenAPIPaths.enumValues(ofSchema: "FailureCode", in: OpenAPIDocument.text))
        #expect(failures == FailureCode.allCases.map(\.rawValue))
        let errors = try #require(OpenAPIPaths.enumValues(ofSchema: "APIErrorCode", in: OpenAPIDocument.text))
        #expect(errors == APIError.Code.all.map(\.description))
        // The fingerprint's documented bound is the one parsing keeps.
        #expect(OpenAPIDocument.text.contains("fingerprint: {type: string, maxLength: \(PhotoFingerprint.maximumEncodedBytes),"))
    }
}

/// The operations (`method path`) of an OpenAPI YAML document, read from its `paths:` section.
enum OpenAPIPaths {
    /// The values of the first `enum: [...]` of the schema `name` under `components.schemas`, in order; nil when it has none.
    static func enumValues(ofSchema name: String, in document: String) -> [String]? {
        var inSchemas = false, inSchema = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "  schemas:" { inSchemas = true; continue }
            guard inSchemas else { continue }
            if line.hasPrefix("    "), !line.hasPrefix("     ") {
                inSchema = line == "    \(name):"
                continue
            }
            if !line.hasPrefix("  ") { return nil }
            let text = line.trimmingCharacters(in: .whitespaces)
            if inSchema, text.hasPrefix("enum: ["), text.hasSuffix("]") {
                return text.dropFirst("enum: [".count).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        return nil
    }

    static func operations(in document: String) -> [String] {
        var operations: [String] = []
        var inPaths = false
        var currentPath: String?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.hasPrefix(" "), !line.isEmpty { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "delete", "patch", "head", "options"].contains(String(method)) {
                    operations.append("\(method) \(path)")
                }
            }
        }
        return operations
    }
}

/// Prometheus text exposition format 0.0.4, parsed strictly enough to catch a malformed line.
enum PrometheusText {
    struct Malformed: Error, CustomStringConvertible {
        let line: String
        var description: String { "not a Prometheus sample line: \(line)" }
    }

    /// Samples by `name{labels}` (as written), failing on any line that is neither a comment nor a sample.
    static func parse(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        let pattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})?) (-?[0-9.eE+-]+|NaN|\+Inf|-Inf)$/
        for line in text.split(separator: "\n") where !line.isEmpty {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") { continue }
            guard let match = String(line).wholeMatch(of: pattern), let value = Double(match.output.4) else {
                throw Malformed(line: String(line))
            }
            samples[String(match.output.1)] = value
        }
        return samples
    }
}
