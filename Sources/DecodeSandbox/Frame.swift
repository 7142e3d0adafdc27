import Foundation

/// One received frame: its kind, its JSON header and its raw bytes.
package struct Frame: Sendable {
    /// What the frame carries.
    package let kind: FrameKind
    /// The frame after its length: kind byte, header length, header, body.
    package let payload: [UInt8]
    /// Where the JSON header lies in `payload`.
    package let headerRange: Range<Int>

    /// The header decoded as `Header`.
    package func header<Header: Decodable>(_ type: Header.Type) throws(ChannelError) -> Header {
        do {
            return try payload[headerRange].withUnsafeBytes { bytes in
                try JSONDecoder().decode(Header.self, from: Data(bytes))
            }
        } catch {
            throw .malformed("a \(kind) header that does not decode: \(error)")
        }
    }

    /// Runs `body` with the raw bytes after the header.
    package func withBody<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try payload.withUnsafeBytes { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes[headerRange.upperBound...]))
        }
    }

    /// The raw bytes after the header.
    package var body: [UInt8] { Array(payload[headerRange.upperBound...]) }
}
