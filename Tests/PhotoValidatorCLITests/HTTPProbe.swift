import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client over a plain TCP or Unix socket: enough to talk to a daemon child
/// process without another HTTP stack in the tests.
enum HTTPProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends one request to 127.0.0.1:`port` with `Connection: close` and returns the whole answer.
    static func exchange(port: Int, method: String, path: String, headers: [String] = [], body: [UInt8] = []) throws -> String {
        let socket = try connect(port: port)
        defer { close(socket) }
        return try converse(socket, method: method, path: path, headers: headers, body: body)
    }

    /// A socket connected to 127.0.0.1:`port`; the caller closes it.
    static func connect(port: Int) throws -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return try connected(family: AF_INET, address: &address)
    }

    /// The head of a request with `Connection: close` and a body of `length` bytes.
    static func head(method: String, path: String, headers: [String] = [], length: Int) -> [UInt8] {
        let lines = ["\(method) \(path) HTTP/1.1", "Host: localhost", "Connection: close", "Content-Length: \(length)"] + headers
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Writes all of `bytes` to `socket`.
    static func write(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send failed (errno \(errno))") }
            sent += count
        }
    }

    /// Reads from `socket` until the server closes it.
    static func readAll(_ socket: Int32) -> String {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The same over the Unix domain socket at `path`.
    static func exchange(unixSocket: String, method: String, path: String, headers: [String] = [], body: [UInt8] = []) throws -> String {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(unixSocket.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
            raw[min(bytes.count, raw.count - 1)] = 0
        }
        let socket = try connected(family: AF_UNIX, address: &address)
        defer { close(socket) }
        return try converse(socket, method: method, path: path, headers: headers, body: body)
    }

    private static func connected<Address>(family: Int32, address: inout Address) throws -> Int32 {
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw Failure(description: "connect failed (errno \(errno))")
        }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    private static func converse(_ socket: Int32, method: String, path: String, headers: [String], body: [UInt8]) throws -> String {
        try write(socket, head(method: method, path: path, headers: headers, length: body.count) + body)
        return readAll(socket)
    }
}
