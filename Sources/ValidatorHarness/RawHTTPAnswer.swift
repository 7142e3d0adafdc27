import Foundation
import TestFixtures

/// An HTTP/1.1 response as `RawHTTP` returns it, taken apart: status, headers, body.
package struct RawHTTPAnswer: Sendable {
    /// The status code.
    package let status: Int
    /// The header fields, names lowercased (the last of repeated names wins).
    package let headers: [String: String]
    /// The body, de-chunked when it was sent in chunks.
    package let body: String

    /// Parses `text`; nil when it has no status line and head.
    package init?(_ text: String) {
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/"),
              let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        self.status = status
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        let rest = String(text[split.upperBound...])
        body = headers["transfer-encoding"]?.lowercased() == "chunked" ? Self.dechunked(rest) : rest
    }

    /// The JSON body's top-level object, or nil when the body is not one.
    package var json: [String: Any]? { Self.jsonObject(body) }

    /// `text` as a JSON object, or nil.
    package static func jsonObject(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    private static func dechunked(_ text: String) -> String {
        var bytes = Substring(text).utf8[...]
        var out: [UInt8] = []
        while let lineEnd = bytes.firstRange(of: "\r\n".utf8),
              let size = Int(String(decoding: bytes[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16), size > 0 {
            let start = lineEnd.upperBound
            let end = bytes.index(start, offsetBy: size, limitedBy: bytes.endIndex) ?? bytes.endIndex
            out += bytes[start..<end]
            bytes = bytes[end...].dropFirst(2)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
