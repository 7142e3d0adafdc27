/// The chunks of a PNG file after its signature, and how to write one.
package struct PNGChunks: Sendable {
    /// One chunk: its four-letter type and its byte range (length, type, data, CRC).
    package struct Chunk: Sendable, Equatable {
        /// The chunk type, such as `IDAT`.
        package let type: String
        /// Its byte range in the file.
        package let range: Range<Int>
    }

    /// The chunks in file order, as far as whole chunk headers go.
    package let chunks: [Chunk]

    /// Walks the chunks of `data`.
    package init(_ data: [UInt8]) {
        var out: [Chunk] = []
        var i = 8
        while i + 12 <= data.count {
            let length = data[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append(Chunk(type: type, range: i..<(i + 12 + length)))
            i += 12 + length
        }
        chunks = out
    }

    /// A whole chunk of `type` holding `body`, with its CRC.
    package static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian32(UInt32(body.count)) + typed + bigEndian32(crc32(typed))
    }

    /// `value` as four big-endian bytes.
    package static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 (ISO-HDLC) PNG puts after each chunk.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
