import TestFixtures

/// Mutated copies of photos for hostile-input checks and fuzz corpora: known-corrupt classes
/// (certain `invalid_image`), declared-huge headers over little data (an answer within the memory
/// budget) and random damage (any answer, no crash, no hang); deterministic for a seed.
///
/// Known-corrupt: `jpeg-sof-height-x4` (the frame header declares four times the rows),
/// `jpeg-cut-eoi-NN` (cut at NN% with an end-of-image marker appended), `jpeg-random-mid-scan`
/// (512 random bytes in the middle of the largest first-pass scan), `jpeg-zeros-mid-scan` (4 KiB
/// of zeros there), `png-idat-crc` (one IDAT byte changed), `png-idat-truncated` (the last IDAT
/// cut, IEND appended), `webp-cut` and `heic-cut` (cut at 60% and 70%).
package struct PhotoMutator: Sendable {
    private var random: SplitMix64

    /// A mutator whose random choices follow `seed`.
    package init(seed: UInt64) {
        random = SplitMix64(state: seed)
    }

    /// The known-corrupt mutations of `data`, a photo of `kind`.
    package mutating func known(_ data: [UInt8], kind: ImageKind) -> [PhotoMutation] {
        var out: [(String, [UInt8]?)] = []
        switch kind {
        case .jpeg:
            out.append(("jpeg-sof-height-x4", Self.jpegSettingSize(data, heightFactor: 4)))
            for percent in [40, 50, 60] {
                out.append(("jpeg-cut-eoi-\(percent)", Array(data[..<(data.count * percent / 100)]) + [0xFF, 0xD9]))
            }
            out.append(("jpeg-random-mid-scan", Self.jpegWritingMidScan(data, randomBytes(512))))
            out.append(("jpeg-zeros-mid-scan", Self.jpegWritingMidScan(data, [UInt8](repeating: 0, count: 4096))))
        case .png:
            out.append(("png-idat-crc", Self.pngChangingIDATByte(data)))
            out.append(("png-idat-truncated", Self.pngTruncatingIDAT(data)))
        case .webp:
            out.append(("webp-cut", Array(data[..<(data.count * 60 / 100)])))
        case .heic:
            out.append(("heic-cut", Array(data[..<(data.count * 70 / 100)])))
        }
        return out.compactMap { name, bytes in bytes.map { PhotoMutation(name: name, bytes: $0, expectation: .invalid) } }
    }

    /// Headers of `data`, a photo of `kind`, declaring close to the pixel limit over its little data.
    package func huge(_ data: [UInt8], kind: ImageKind) -> [PhotoMutation] {
        let out: [(String, [UInt8]?)] = switch kind {
        case .jpeg:
            [("jpeg-declared-65500x1000", Self.jpegSettingSize(data, width: 65500, height: 1000)),
             ("jpeg-declared-10000x10000", Self.jpegSettingSize(data, width: 10000, height: 9999))]
        case .png: [("png-declared-30000x3000", Self.pngSettingSize(data, width: 30000, height: 3000))]
        case .webp: [("webp-declared-16383x6000", Self.webpSettingSize(data, width: 16383, height: 6000))]
        case .heic: [("heic-declared-12000x8000", Self.heifSettingSize(data, width: 12000, height: 8000))]
        }
        return out.compactMap { name, bytes in bytes.map { PhotoMutation(name: name, bytes: $0, expectation: .bounded) } }
    }

    /// One random mutation of `data` (bit flips, a truncation, an overwrite, a duplicated segment
    /// or chunk, a mangled size, random bytes past the headers or a run of bytes cut out), or nil
    /// when the chosen one does not apply to this file.
    package mutating func randomMutation(_ data: [UInt8], kind: ImageKind) -> PhotoMutation? {
        let (name, bytes): (String, [UInt8]?)
        switch below(7) {
        case 0:
            var out = data
            for _ in 0..<(1 + below(16)) { out[below(out.count)] ^= 1 << UInt8(below(8)) }
            (name, bytes) = ("bitflip", out)
        case 1:
            (name, bytes) = ("truncate", Array(data[..<(1 + below(data.count - 1))]))
        case 2:
            var out = data
            let size = [1, 4, 16, 64, 512, 4096][below(6)]
            let position = below(out.count)
            let end = min(position + size, out.count)
            out.replaceSubrange(position..<end, with: randomBytes(end - position))
            (name, bytes) = ("overwrite", out)
        case 3:
            switch kind {
            case .jpeg: (name, bytes) = ("duplicate-segment", duplicatingJPEGSegment(data))
            case .png: (name, bytes) = ("duplicate-chunk", duplicatingPNGChunk(data))
            case .webp, .heic: (name, bytes) = ("truncate", Array(data[..<(1 + below(data.count - 1))]))
            }
        case 4:
            let (width, height) = [(0, 1), (1, 0), (65535, 65535), (65500, 1), (1, 65500), (12345, 6789), (3, 3)][below(7)]
            let mangled: [UInt8]? = switch kind {
            case .jpeg: Self.jpegSettingSize(data, width: max(width, 1), height: max(height, 1))
            case .png: Self.pngSettingSize(data, width: width, height: height)
            case .webp: Self.webpSettingSize(data, width: max(width, 1), height: max(height, 1))
            case .heic: Self.heifSettingSize(data, width: width, height: height)
            }
            (name, bytes) = ("mangled-size", mangled)
        case 5:
            (name, bytes) = ("random-mid", randomPastHeaders(data, size: [16, 512, 4096][below(3)]))
        default:
            // A run of bytes removed: everything after it shifts.
            let position = below(data.count)
            let end = min(data.count, position + [1, 7, 100, 1000][below(4)])
            (name, bytes) = ("cut-out", Array(data[..<position] + data[end...]))
        }
        return bytes.map { PhotoMutation(name: name, bytes: $0, expectation: .any) }
    }

    // MARK: - Random choices

    /// A uniformly random integer in `0 ..< upperBound` (0 when the range is empty).
    private mutating func below(_ upperBound: Int) -> Int {
        upperBound > 0 ? Int.random(in: 0..<upperBound, using: &random) : 0
    }

    private mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    }

    /// `size` random bytes written at a random place in the last 70% of `data`.
    private mutating func randomPastHeaders(_ data: [UInt8], size: Int) -> [UInt8]? {
        let start = data.count * 3 / 10
        guard data.count - start >= size * 2 else { return nil }
        var out = data
        let position = start + below(data.count - size - start)
        out.replaceSubrange(position..<(position + size), with: randomBytes(size))
        return out
    }

    private mutating func duplicatingJPEGSegment(_ data: [UInt8]) -> [UInt8]? {
        let segments = JPEGSegments(data).segments.filter {
            if case .marker(let marker) = $0.kind { marker != 0xD9 } else { false }
        }
        guard !segments.isEmpty else { return nil }
        let range = segments[below(segments.count)].range
        return Array(data[..<range.upperBound] + data[range] + data[range.upperBound...])
    }

    private mutating func duplicatingPNGChunk(_ data: [UInt8]) -> [UInt8]? {
        let chunks = PNGChunks(data).chunks.dropFirst().dropLast()
        guard !chunks.isEmpty else { return nil }
        let range = chunks[chunks.startIndex + below(chunks.count)].range
        guard range.upperBound <= data.count else { return nil }
        return Array(data[..<range.upperBound] + data[range] + data[range.upperBound...])
    }

    // MARK: - Edits

    /// `data` with its frame header's size set (or its height multiplied by `heightFactor`, up to 65500).
    static func jpegSettingSize(_ data: [UInt8], width: Int? = nil, height: Int? = nil, heightFactor: Int? = nil) -> [UInt8]? {
        guard let sof = JPEGSegments(data).startOfFrame, sof + 9 <= data.count else { return nil }
        var out = data
        var declaredHeight = Int(data[sof + 5]) << 8 | Int(data[sof + 6])
        let declaredWidth = Int(data[sof + 7]) << 8 | Int(data[sof + 8])
        if let heightFactor { declaredHeight = min(65500, declaredHeight * heightFactor) }
        let newHeight = height ?? declaredHeight, newWidth = width ?? declaredWidth
        out[sof + 5] = UInt8(newHeight >> 8 & 0xFF); out[sof + 6] = UInt8(newHeight & 0xFF)
        out[sof + 7] = UInt8(newWidth >> 8 & 0xFF); out[sof + 8] = UInt8(newWidth & 0xFF)
        return out
    }

    /// `data` with `payload` written over the middle of its largest first-pass scan.
    static func jpegWritingMidScan(_ data: [UInt8], _ payload: [UInt8]) -> [UInt8]? {
        guard let scan = JPEGSegments(data).largestScan, scan.count >= payload.count * 2 else { return nil }
        let middle = (scan.lowerBound + scan.upperBound) / 2 - payload.count / 2
        var out = data
        out.replaceSubrange(middle..<(middle + payload.count), with: payload)
        return out
    }

    /// `data` with one byte of its middle IDAT chunk's data changed, so its CRC no longer matches.
    static func pngChangingIDATByte(_ data: [UInt8]) -> [UInt8]? {
        let idats = PNGChunks(data).chunks.filter { $0.type == "IDAT" }
        guard !idats.isEmpty else { return nil }
        let range = idats[idats.count / 2].range
        var out = data
        out[(range.lowerBound + 8 + range.upperBound - 4) / 2] ^= 0x55
        return out
    }

    /// `data` cut inside its last IDAT chunk, re-framed as a well-formed chunk holding a third of
    /// its data and IEND: the damage is in the compressed stream, not the framing.
    static func pngTruncatingIDAT(_ data: [UInt8]) -> [UInt8]? {
        guard let last = PNGChunks(data).chunks.last(where: { $0.type == "IDAT" }), last.range.upperBound <= data.count else { return nil }
        let body = data[(last.range.lowerBound + 8)..<(last.range.upperBound - 4)]
        let cut = Array(body.prefix(max(1, body.count / 3)))
        return Array(data[..<last.range.lowerBound]) + PNGChunks.chunk("IDAT", cut) + PNGChunks.chunk("IEND", [])
    }

    /// `data` with its IHDR's width and height set (CRC recomputed).
    static func pngSettingSize(_ data: [UInt8], width: Int, height: Int) -> [UInt8]? {
        guard let header = PNGChunks(data).chunks.first, header.type == "IHDR", header.range.upperBound <= data.count else { return nil }
        var body = Array(data[(header.range.lowerBound + 8)..<(header.range.upperBound - 4)])
        guard body.count >= 8 else { return nil }
        body.replaceSubrange(0..<8, with: PNGChunks.bigEndian32(UInt32(width)) + PNGChunks.bigEndian32(UInt32(height)))
        return Array(data[..<header.range.lowerBound]) + PNGChunks.chunk("IHDR", body) + Array(data[header.range.upperBound...])
    }

    /// `data` with its VP8 (lossy) frame size or its VP8X canvas set, whichever it has.
    static func webpSettingSize(_ data: [UInt8], width: Int, height: Int) -> [UInt8]? {
        var out = data
        if let position = firstIndex(of: "VP8 ", in: data), position + 18 <= data.count,
           data[(position + 11)..<(position + 14)].elementsEqual([0x9D, 0x01, 0x2A]) {
            let w = width & 0x3FFF, h = height & 0x3FFF
            out.replaceSubrange((position + 14)..<(position + 18), with: [UInt8(w & 0xFF), UInt8(w >> 8), UInt8(h & 0xFF), UInt8(h >> 8)])
            return out
        }
        if let position = firstIndex(of: "VP8X", in: data), position + 18 <= data.count {
            let w = width - 1, h = height - 1
            out.replaceSubrange((position + 12)..<(position + 18), with: [
                UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF), UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF),
            ])
            return out
        }
        return nil
    }

    /// `data` with every `ispe` (image spatial extents) property set.
    static func heifSettingSize(_ data: [UInt8], width: Int, height: Int) -> [UInt8]? {
        var out = data
        var found = false
        var from = 0
        while let position = firstIndex(of: "ispe", in: data, from: from) {
            if position + 16 <= data.count {
                out.replaceSubrange((position + 8)..<(position + 16), with: PNGChunks.bigEndian32(UInt32(width)) + PNGChunks.bigEndian32(UInt32(height)))
                found = true
            }
            from = position + 4
        }
        return found ? out : nil
    }

    private static func firstIndex(of text: String, in data: [UInt8], from start: Int = 0) -> Int? {
        let needle = Array(text.utf8)
        guard data.count >= needle.count, start <= data.count - needle.count else { return nil }
        return (start...(data.count - needle.count)).first { data[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
