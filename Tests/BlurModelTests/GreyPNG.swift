import Foundation

/// An 8-bit greyscale, non-interlaced PNG read in Swift alone (the parity fixture's plane): its
/// chunks, zlib's inflate (`Inflater`) and the five row filters.
struct GreyPNG {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// `width * height` samples, row after row.
    let pixels: [UInt8]

    /// Why a PNG could not be read.
    struct Unreadable: Error {
        /// What is wrong.
        let reason: String
    }

    /// Decodes `data`; only 8-bit greyscale without interlace.
    init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Unreadable(reason: "not a PNG") }
        func be32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var offset = 8, width = 0, height = 0, compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let kind = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = (offset + 8)..<(offset + 8 + length)
            switch kind {
            case "IHDR":
                width = be32(body.lowerBound)
                height = be32(body.lowerBound + 4)
                guard bytes[body.lowerBound + 8] == 8, bytes[body.lowerBound + 9] == 0, bytes[body.lowerBound + 12] == 0 else {
                    throw Unreadable(reason: "not 8-bit greyscale without interlace")
                }
            case "IDAT":
                compressed += bytes[body]
            default:
                break
            }
            offset = body.upperBound + 4
        }
        guard compressed.count > 2 else { throw Unreadable(reason: "no image data") }
        var inflater = Inflater(Array(compressed.dropFirst(2)))
        let raw = try inflater.inflate()
        guard raw.count >= height * (width + 1) else { throw Unreadable(reason: "short image data") }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let filter = raw[y * (width + 1)]
            for x in 0..<width {
                let value = raw[y * (width + 1) + 1 + x]
                let left = x > 0 ? Int(pixels[y * width + x - 1]) : 0
                let up = y > 0 ? Int(pixels[(y - 1) * width + x]) : 0
                let upLeft = x > 0 && y > 0 ? Int(pixels[(y - 1) * width + x - 1]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = a <= b && a <= c ? left : (b <= c ? up : upLeft)
                default: throw Unreadable(reason: "filter \(filter)")
                }
                pixels[y * width + x] = UInt8(truncatingIfNeeded: Int(value) + predicted)
            }
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
