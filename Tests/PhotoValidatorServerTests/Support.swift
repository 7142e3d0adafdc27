import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PhotoValidatorCLI
@testable import PhotoValidatorServer
import TestFixtures
import Testing

/// A quiet logger for apps under test.
let testLogger: Logger = {
    var logger = Logger(label: "photo-validator-test")
    logger.logLevel = .warning
    return logger
}()

/// Builds the daemon through the composition root with `configure` applied to the defaults, and
/// runs `test` against it on a real loopback HTTP server.
func withLiveApp<Value>(
    _ configure: (inout ServiceConfiguration) -> Void = { _ in },
    _ test: @escaping @Sendable (any TestClientProtocol, PhotoValidatorApp) async throws -> Value
) async throws -> Value {
    var configuration = ServiceConfiguration()
    configuration.workers = 2
    configuration.queueLimit = 8
    // In-process: these tests exercise the HTTP layer; the daemon's own worker processes are
    // tested through the real binary (DecodeIsolationTests).
    configuration.validation.decodeIsolation = .none
    configure(&configuration)
    let app = try buildApplication(configuration: configuration, logger: testLogger)
    return try await app.makeApplication().test(.live) { client in
        try await test(client, app)
    }
}

/// The bytes of a testdata file.
func testdataBytes(_ path: String) throws -> ByteBuffer {
    ByteBuffer(data: try Data(contentsOf: Fixtures.testdataFile(path)))
}

extension MultipartBody {
    /// Adds a file part from a buffer.
    mutating func file(_ name: String, filename: String, contentType: String, bytes: ByteBuffer) {
        file(name, filename: filename, contentType: contentType, bytes: Array(buffer: bytes))
    }

    /// The header and body to send.
    func finished() -> (headers: HTTPFields, body: ByteBuffer) {
        ([.contentType: contentType], ByteBuffer(bytes: bytes))
    }
}

/// The JSON object of a response body.
func jsonObject(_ response: TestResponse) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
}

/// Checks that `response` is an error in the gateway's shape with `status` and `code`.
func expectError(_ response: TestResponse, status: HTTPResponse.Status, code: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(response.status == status, sourceLocation: sourceLocation)
    let object = try jsonObject(response)
    #expect(Set(object.keys) == ["error", "message", "retryable", "detail"], sourceLocation: sourceLocation)
    #expect(object["error"] as? String == code, sourceLocation: sourceLocation)
    #expect((object["message"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(response.headers[.contentType] == "application/json", sourceLocation: sourceLocation)
}
