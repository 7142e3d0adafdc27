import Foundation

/// A `multipart/form-data` body built in code: text fields and file parts, in order.
package struct MultipartBody: Sendable {
    /// The boundary between parts.
    package let boundary: String
    private var parts: [UInt8] = []

    /// An empty body with `boundary`.
    package init(boundary: String = "pv-" + UUID().uuidString) {
        self.boundary = boundary
    }

    /// A body with `fields` (name, value) in order, then `file` (file name, content type, bytes) as the `file` part.
    package init(fields: [(String, String)], file: (name: String, contentType: String, bytes: [UInt8])?) {
        self.init()
        for (name, value) in fields { field(name, value) }
        if let file { self.file("file", filename: file.name, contentType: file.contentType, bytes: file.bytes) }
    }

    /// Adds a text field.
    package mutating func field(_ name: String, _ value: String) {
        parts += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    /// Adds a file part.
    package mutating func file(_ name: String, filename: String, contentType: String, bytes: [UInt8]) {
        parts += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        parts += bytes + Array("\r\n".utf8)
    }

    /// The whole body, closing boundary included.
    package var bytes: [UInt8] { parts + Array("--\(boundary)--\r\n".utf8) }

    /// The `Content-Type` header value, with the boundary.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }
}
