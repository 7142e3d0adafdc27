/// Files that are cheap to send and, without the decode cost caps, expensive to decode: each made
/// from a real photo of its format, as the starvation attacks of issue 34 were. Used by the tests
/// (each must be refused `costly_structure` at once) and by `photo-validator-harness hostile-cost`.
package enum CostlyFiles {
    /// `jpeg` with `count` empty APP1 segments after SOI (1.5 million made a 19 MB file that
    /// held a worker for the whole deadline).
    package static func jpegSegmentFlood(_ jpeg: [UInt8], count: Int, marker: UInt8 = 0xE1) -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        out.reserveCapacity(jpeg.count + 6 * count)
        for _ in 0..<count { out += [0xFF, marker, 0x00, 0x04, 0x00, 0x00] }
        return out + jpeg.dropFirst(2)
    }

    /// `jpeg` with `count` extra start-of-scan segments (one coefficient of one component each, a
    /// byte of data) before its end marker: the structure of a many-scan progressive file.
    package static func jpegScanFlood(_ jpeg: [UInt8], count: Int) -> [UInt8] {
        var out = Array(jpeg.dropLast(2))
        for _ in 0..<count { out += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x01, 0x00, 0x00] }
        return out + [0xFF, 0xD9]
    }

    /// `jpeg` with APP2 segments of 65,533 bytes adding up to `bytes` of metadata.
    package static func jpegMetadataFlood(_ jpeg: [UInt8], bytes: Int) -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        var left = bytes
        while left > 0 {
            let length = min(65_535, left + 2)
            out += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8](repeating: 0x20, count: length - 2)
            left -= length - 2
        }
        return out + jpeg.dropFirst(2)
    }

    /// `png` with `count` small tEXt chunks after its header.
    package static func pngChunkFlood(_ png: [UInt8], count: Int) -> [UInt8] {
        let text = PNGChunks.chunk("tEXt", Array("k\u{0}v".utf8))
        let headerEnd = 8 + 25
        var out = Array(png.prefix(headerEnd))
        out.reserveCapacity(png.count + text.count * count)
        for _ in 0..<count { out += text }
        return out + png.dropFirst(headerEnd)
    }

    /// `png` with `bytes` of zeros in an extra IDAT chunk before IEND: more compressed data than
    /// its picture could need, which a decoder would inflate for nothing.
    package static func pngPaddedData(_ png: [UInt8], bytes: Int) -> [UInt8] {
        Array(png.dropLast(12)) + PNGChunks.chunk("IDAT", [UInt8](repeating: 0, count: bytes)) + png.suffix(12)
    }

    /// An animated WebP of `frames` copies of the still `webp`'s bitstream (VP8 or VP8L), on a
    /// canvas of its size; with `canvasLie`, each frame is placed 2 px right and down, past the canvas.
    package static func webpFrameFlood(_ webp: [UInt8], frames: Int, canvasLie: Bool = false) -> [UInt8]? {
        func little(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        guard webp.count > 30 else { return nil }
        // The first VP8 or VP8L chunk, and its size.
        var position = 12
        var bitstream: [UInt8]?
        var size: (Int, Int)?
        while position + 8 <= webp.count {
            let type = String(decoding: webp[position..<(position + 4)], as: UTF8.self)
            let length = Int(webp[position + 4]) | Int(webp[position + 5]) << 8 | Int(webp[position + 6]) << 16 | Int(webp[position + 7]) << 24
            guard position + 8 + length <= webp.count else { return nil }
            let data = Array(webp[(position + 8)..<(position + 8 + length)])
            if type == "VP8 " {
                size = ((Int(data[6]) | Int(data[7]) << 8) & 0x3FFF, (Int(data[8]) | Int(data[9]) << 8) & 0x3FFF)
            } else if type == "VP8L" {
                let bits = Int(data[1]) | Int(data[2]) << 8 | Int(data[3]) << 16 | Int(data[4]) << 24
                size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            }
            if size != nil {
                bitstream = Array(webp[position..<(position + 8 + length + (length & 1))])
                break
            }
            position += 8 + length + (length & 1)
        }
        guard let bitstream, let (width, height) = size else { return nil }
        let canvas = (width, height)
        let offset: [UInt8] = canvasLie ? [1, 0, 0, 1, 0, 0] : [0, 0, 0, 0, 0, 0]
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            Array(type.utf8) + little(body.count, 4) + body + (body.count & 1 == 1 ? [0] : [])
        }
        let frame = chunk("ANMF", offset + little(width - 1, 3) + little(height - 1, 3) + little(100, 3) + [0] + bitstream)
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [0x02, 0, 0, 0] + little(canvas.0 - 1, 3) + little(canvas.1 - 1, 3))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        body.reserveCapacity(body.count + frame.count * frames)
        for _ in 0..<frames { body += frame }
        return Array("RIFF".utf8) + little(body.count, 4) + body
    }
}
