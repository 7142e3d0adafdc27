import Foundation

/// A `multipart/form-data` body built in code: text fields and an optional file part.
public struct MultipartBody: Sendable {
    /// The body bytes.
    public let bytes: [UInt8]
    /// The `Content-Type` header value, with the boundary.
    public let contentType: String

    /// A body with `fields` (name, value) in order, then `file` (file name, content type, bytes) as the `file` part.
    public init(fields: [(String, String)], file: (name: String, contentType: String, bytes: [UInt8])?, boundary: String = "pv" + UUID().uuidString) {
        var out: [UInt8] = []
        for (name, value) in fields {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let file {
            out += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(file.name)\"\r\nContent-Type: \(file.contentType)\r\n\r\n".utf8)
            out += file.bytes + Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        bytes = out
        contentType = "multipart/form-data; boundary=\(boundary)"
    }
}
