import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 exchange over a plain socket, for requests a normal client will not send
/// (a body shorter than its Content-Length) and for Unix domain sockets.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `head` and `body` to 127.0.0.1:`port`, then reads until the server closes or
    /// `timeout` passes, and returns what arrived.
    static func exchange(port: Int, head: String, body: [UInt8] = [], timeout: TimeInterval = 10) throws -> String {
        let socket = try open(port: port)
        defer { close(socket) }
        return try converse(socket: socket, head: head, body: body, timeout: timeout)
    }

    /// Sends `bytes` to 127.0.0.1:`port` and returns the open socket, for a request left unfinished.
    static func start(port: Int, sending bytes: String) throws -> Int32 {
        let socket = try open(port: port)
        let data = Array(bytes.utf8)
        _ = data.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return socket
    }

    private static func open(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect to port \(port) failed")
        }
        return socket
    }

    /// The same over the Unix domain socket at `path`.
    static func exchange(unixSocket path: String, head: String, body: [UInt8] = [], timeout: TimeInterval = 10) throws -> String {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure(description: "socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to \(path) failed") }
        return try converse(socket: socket, head: head, body: body, timeout: timeout)
    }

    private static func converse(socket: Int32, head: String, body: [UInt8], timeout: TimeInterval) throws -> String {
        var timeval = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
            // One response is enough: stop once the JSON body of a Content-Length response is in.
            if let text = String(bytes: received, encoding: .utf8), let complete = completeResponse(text) {
                return complete
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The response when its head and its whole Content-Length body have arrived.
    private static func completeResponse(_ text: String) -> String? {
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<split.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return text[split.upperBound...].utf8.count >= length ? text : nil
    }
}
