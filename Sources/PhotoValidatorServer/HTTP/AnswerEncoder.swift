import Foundation
import Hummingbird

/// The one JSON encoding of every answer: sorted keys, plain slashes, ISO 8601 dates, served as
/// `application/json` (the gateway's content type). It is the request context's response encoder,
/// so handlers return `ResponseEncodable` values as Hummingbird intends.
package struct AnswerEncoder: ResponseEncoder {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// Creates the encoder.
    package init() {}

    /// `value` as a 200 JSON answer.
    package func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        Self.response(json: ByteBuffer(data: try Self.encoder.encode(value)))
    }

    /// `value` in the answers' encoding: encoded once, then both kept (for a keyed upload, to be
    /// given again) and sent.
    static func json(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(data: try encoder.encode(value))
    }

    /// An answer whose body is already JSON in this encoding.
    static func response(json body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
