/// Writes PNG files in code (8-bit greyscale, stored deflate blocks), for tests that need photos of
/// a given size, such as 18 megapixels, that `testdata/` cannot hold.
package enum SyntheticPNG {
    /// A `width` x `height` greyscale PNG of a diagonal pattern with fine detail.
    package static func pattern(width: Int, height: Int) -> [UInt8] {
        grey(width: width, height: height) { x, y in UInt8(truncatingIfNeeded: (x &* 7 &+ y &* 3) ^ (x / 16 &+ y / 16) &* 37) }
    }

    /// A `width` x `height` greyscale PNG whose sample at (x, y) is `sample(x, y)`.
    package static func grey(width: Int, height: Int, sample: (Int, Int) -> UInt8) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                raw.append(sample(x, y))
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0], into: &png)
        chunk("IDAT", zlibStored(raw), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        png += PNGChunks.chunk(type, data)
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(Int(b << 16 | a))
    }
}
