import Foundation
#if canImport(Glibc)
import Glibc
import TestFixtures
#endif

/// A keep-alive HTTP/1.1 client connection to 127.0.0.1 whose calls block, for load generators
/// that run on threads of their own (the soak's clients): whole requests, or a head and then the
/// body in pieces at the caller's pace, and one response read by its framing.
package final class BlockingHTTPConnection {
    /// A response: status, lowercased header names, and the body.
    package struct Response: Sendable {
        /// The status code.
        package let status: Int
        /// Header fields by lowercased name.
        package let headers: [String: String]
        /// The body bytes (de-chunked).
        package let body: [UInt8]

        /// The body as a JSON object, or nil.
        package var json: [String: Any]? {
            body.first == UInt8(ascii: "{") ? (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] : nil
        }
    }

    /// The socket failed or the server closed it before a whole response.
    package struct Failure: Error, CustomStringConvertible {
        /// Short name of what happened (`ConnectionRefused`, `ConnectionClosed`, `Timeout`...).
        package let name: String
        /// What happened.
        package var description: String { name }
    }

    private let socket: Int32
    private var buffer: [UInt8] = []
    /// True once the server said `Connection: close` or closed the socket.
    package private(set) var closed = false

    /// Connects to 127.0.0.1:`port`, each later read waiting at most `timeout` seconds.
    package init(port: Int, timeout: TimeInterval) throws {
        do {
            socket = try RawHTTP.blockingConnect(port: port, timeout: timeout)
        } catch {
            throw Failure(name: errno == ECONNREFUSED ? "ConnectionRefused" : "ConnectError")
        }
        var sendTimeout = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(socket) }

    /// Sends `bytes` whole.
    package func send(_ bytes: [UInt8]) throws {
        do {
            try RawHTTP.blockingWrite(socket, bytes)
        } catch {
            closed = true
            throw Failure(name: errno == EPIPE ? "BrokenPipe" : errno == ECONNRESET ? "ConnectionReset" : "SendError")
        }
    }

    /// Sends a request head: `headers` as `Name: value` lines, plus `Host`.
    package func sendHead(method: String, path: String, headers: [String]) throws {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers
        try send(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Sends a whole request with its `Content-Length` (keep-alive) and reads the response.
    package func request(method: String, path: String, headers: [String], body: [UInt8]) throws -> Response {
        try sendHead(method: method, path: path, headers: headers + (method == "GET" && body.isEmpty ? [] : ["Content-Length: \(body.count)"]))
        if !body.isEmpty { try send(body) }
        return try readResponse()
    }

    /// Reads one response (skipping interim 1xx ones), framed by Content-Length, chunks, or close.
    package func readResponse() throws -> Response {
        while true {
            let head = try readHead()
            let lines = head.split(separator: "\r\n")
            guard let statusLine = lines.first, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
                closed = true
                throw Failure(name: "MalformedResponse")
            }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            if (100..<200).contains(status) { continue }
            let body: [UInt8]
            if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                body = try readChunked()
            } else if let length = headers["content-length"].flatMap(Int.init) {
                body = try read(count: length)
            } else {
                body = readUntilClose()
            }
            if headers["connection"]?.lowercased() == "close" { closed = true }
            return Response(status: status, headers: headers, body: body)
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            closed = true
            throw Failure(name: count == 0 ? "ConnectionClosed" : errno == EAGAIN || errno == EWOULDBLOCK ? "Timeout" : "ConnectionReset")
        }
        buffer += chunk[0..<count]
    }

    private func readHead() throws -> String {
        let end = Array("\r\n\r\n".utf8)
        while true {
            if let range = buffer.firstRange(of: end) {
                let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(..<range.upperBound)
                return head
            }
            try fill()
        }
    }

    private func read(count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    private func readLine() throws -> String {
        let end = Array("\r\n".utf8)
        while true {
            if let range = buffer.firstRange(of: end) {
                defer { buffer.removeSubrange(..<range.upperBound) }
                return String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
            }
            try fill()
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let size = Int(try readLine().split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 {
                _ = try readLine()
                return body
            }
            body += try read(count: size)
            _ = try readLine()
        }
    }

    private func readUntilClose() -> [UInt8] {
        while (try? fill()) != nil {}
        defer { buffer.removeAll() }
        return buffer
    }
}
