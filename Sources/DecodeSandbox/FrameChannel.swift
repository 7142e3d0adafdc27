import CSandbox
import Foundation

/// One end of a worker's socket, carrying length-prefixed frames: a 4-byte little-endian length,
/// a kind byte, a 4-byte header length, a JSON header, then raw bytes (a photo, a preview JPEG).
///
/// Written by hand: the frames are few and simple, and the worker side must run under seccomp with
/// nothing but blocking reads and writes on one descriptor.
package struct FrameChannel: Sendable {
    /// The socket.
    package let descriptor: Int32

    /// The channel over `descriptor`.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The largest frame either side accepts (a photo is at most `limits.body_mib`, 1 GiB).
    package static let maximumFrame = 1 << 30 + 1 << 20

    /// Sends one frame.
    package func send(_ kind: FrameKind, header: [UInt8], body: UnsafeRawBufferPointer) throws(ChannelError) {
        let length = 1 + 4 + header.count + body.count
        guard length <= Self.maximumFrame else { throw .tooLarge(length) }
        var prefix: [UInt8] = []
        prefix.reserveCapacity(9 + header.count)
        Self.append(UInt32(length), to: &prefix)
        prefix.append(kind.rawValue)
        Self.append(UInt32(header.count), to: &prefix)
        prefix.append(contentsOf: header)
        let status = prefix.withUnsafeBytes { first in
            pv_sandbox_send(descriptor, first.baseAddress, first.count, body.baseAddress, body.count)
        }
        guard status == 0 else {
            if status == EPIPE { throw ChannelError.closed(prefix: []) }
            throw ChannelError.failed(errno: status)
        }
    }

    /// Receives one frame within `timeoutMilliseconds` (-1: no limit).
    package func receive(timeoutMilliseconds: Int32) throws(ChannelError) -> Frame {
        let started = ContinuousClock.now
        var lengthBytes = [UInt8](repeating: 0, count: 4)
        try read(into: &lengthBytes, timeoutMilliseconds: timeoutMilliseconds)
        let length = Int(Self.uint32(lengthBytes, at: 0))
        guard length >= 5, length <= Self.maximumFrame else { throw .malformed("a frame of \(length) bytes") }
        var left = timeoutMilliseconds
        if timeoutMilliseconds >= 0 {
            left = max(1, timeoutMilliseconds - Int32(clamping: (ContinuousClock.now - started).wholeMilliseconds))
        }
        var payload = [UInt8](unsafeUninitializedCapacity: length) { _, count in count = length }
        try read(into: &payload, timeoutMilliseconds: left)
        guard let kind = FrameKind(rawValue: payload[0]) else { throw .malformed("an unknown frame kind \(payload[0])") }
        let headerLength = Int(Self.uint32(payload, at: 1))
        guard headerLength <= length - 5 else { throw .malformed("a header of \(headerLength) bytes in a frame of \(length)") }
        return Frame(kind: kind, payload: payload, headerRange: 5..<(5 + headerLength))
    }

    private func read(into buffer: inout [UInt8], timeoutMilliseconds: Int32) throws(ChannelError) {
        var received = 0
        let count = buffer.count
        let status = buffer.withUnsafeMutableBytes { bytes in
            pv_sandbox_receive(descriptor, bytes.baseAddress, count, timeoutMilliseconds, &received)
        }
        switch status {
        case 0: return
        case ETIMEDOUT: throw .timedOut
        case EPIPE: throw .closed(prefix: Array(buffer[0..<received]))
        default: throw .failed(errno: status)
        }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
