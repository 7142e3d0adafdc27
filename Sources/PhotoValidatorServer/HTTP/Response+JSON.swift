import Foundation
import Hummingbird

extension Response {
    /// The one JSON encoding of every answer: sorted keys, plain slashes, ISO 8601 dates.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        jsonBody(ByteBuffer(data: try jsonData(value)), status: status, headers: headers)
    }

    /// `value` in the answers' JSON encoding, as text (for answers kept to be given again).
    static func jsonText(_ value: some Encodable) throws -> String {
        String(decoding: try jsonData(value), as: UTF8.self)
    }

    /// An answer whose body is already JSON.
    static func jsonBody(_ body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    private static func jsonData(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }
}
