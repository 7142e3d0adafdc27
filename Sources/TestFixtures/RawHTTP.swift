import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 client over a plain TCP or Unix socket, for requests a normal client will not send
/// (a body shorter than its Content-Length, a request left half-sent) and for talking to a daemon
/// child process. The socket calls block, so they run on a Dispatch thread, never on the
/// cooperative pool that the server under test needs for its own handlers.
package enum RawHTTP {
    /// A socket or protocol failure.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }

    /// Sends one request with `Connection: close` to 127.0.0.1:`port` and returns the whole answer.
    package static func request(port: Int, method: String, path: String, headers: [String] = [], body: [UInt8] = []) async throws -> String {
        try await offloaded { try blockingRequest(port: port, method: method, path: path, headers: headers, body: body) }
    }

    private static func blockingRequest(port: Int, method: String, path: String, headers: [String], body: [UInt8]) throws -> String {
        let socket = try blockingConnect(port: port)
        defer { close(socket) }
        try blockingWrite(socket, head(method: method, path: path, headers: headers, length: body.count) + body)
        return blockingReadAll(socket)
    }

    /// The same over the Unix domain socket at `unixSocket`.
    package static func request(unixSocket: String, method: String, path: String, headers: [String] = [], body: [UInt8] = []) async throws -> String {
        try await offloaded { try blockingRequest(unixSocket: unixSocket, method: method, path: path, headers: headers, body: body) }
    }

    private static func blockingRequest(unixSocket: String, method: String, path: String, headers: [String], body: [UInt8]) throws -> String {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(unixSocket.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
            raw[min(bytes.count, raw.count - 1)] = 0
        }
        let socket = try connected(family: AF_UNIX, address: &address)
        defer { close(socket) }
        try blockingWrite(socket, head(method: method, path: path, headers: headers, length: body.count) + body)
        return blockingReadAll(socket)
    }

    /// Sends the raw `text` and returns the first complete response (by its Content-Length), or
    /// what arrived when the server closed or `timeout` passed, without sending anything more.
    package static func firstResponse(port: Int, sending text: String, timeout: TimeInterval = 10) async throws -> String {
        try await offloaded { try blockingFirstResponse(port: port, sending: text, timeout: timeout) }
    }

    private static func blockingFirstResponse(port: Int, sending text: String, timeout: TimeInterval) throws -> String {
        let socket = try blockingConnect(port: port, timeout: timeout)
        defer { close(socket) }
        try blockingWrite(socket, Array(text.utf8))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
            if let complete = completeResponse(String(decoding: received, as: UTF8.self)) { return complete }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A socket connected to 127.0.0.1:`port`; the caller closes it.
    package static func connect(port: Int, timeout: TimeInterval = 60) async throws -> Int32 {
        try await offloaded { try blockingConnect(port: port, timeout: timeout) }
    }

    /// `connect(port:timeout:)` on the calling thread, for callers that already run off the cooperative pool.
    package static func blockingConnect(port: Int, timeout: TimeInterval = 60) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return try connected(family: AF_INET, address: &address, timeout: timeout)
    }

    /// The head of a request with `Connection: close` and a body of `length` bytes.
    package static func head(method: String, path: String, headers: [String] = [], length: Int) -> [UInt8] {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: localhost", "Connection: close", "Content-Length: \(length)"] + headers
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Writes all of `bytes` to `socket`.
    package static func write(_ socket: Int32, _ bytes: [UInt8]) async throws {
        try await offloaded { try blockingWrite(socket, bytes) }
    }

    /// `write(_:_:)` on the calling thread.
    package static func blockingWrite(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send failed (errno \(errno))") }
            sent += count
        }
    }

    /// Reads from `socket` up to the end of one response head (an interim one such as
    /// `100 Continue`), or what arrived before the server closed or the receive timeout passed.
    package static func readHead(_ socket: Int32) async throws -> String {
        try await offloaded { blockingReadHead(socket) }
    }

    private static func blockingReadHead(_ socket: Int32) -> String {
        // A byte at a time: whatever follows the head is left for the next read.
        var received: [UInt8] = []
        let end = Array("\r\n\r\n".utf8)
        var byte: UInt8 = 0
        while !received.suffix(4).elementsEqual(end), recv(socket, &byte, 1, 0) == 1 {
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads from `socket` until the server closes it (or the receive timeout passes).
    package static func readAll(_ socket: Int32) async throws -> String {
        try await offloaded { blockingReadAll(socket) }
    }

    /// `readAll(_:)` on the calling thread.
    package static func blockingReadAll(_ socket: Int32) -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    private static func connected<Address>(family: Int32, address: inout Address, timeout: TimeInterval = 60) throws -> Int32 {
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect failed (errno \(errno))")
        }
        var receiveTimeout = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
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
