import Foundation

extension FrameChannel {
    /// Sends `header` as JSON with `body` after it.
    package func send<Header: Encodable>(_ kind: FrameKind, _ header: Header, body: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) throws(ChannelError) {
        let encoded: [UInt8]
        do {
            encoded = Array(try JSONEncoder().encode(header))
        } catch {
            throw .malformed("a \(kind) header that does not encode: \(error)")
        }
        try send(kind, header: encoded, body: body)
    }
}
