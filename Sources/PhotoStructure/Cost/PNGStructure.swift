/// What a PNG's chunk structure asks of a decoder, read up to IEND.
struct PNGStructure: Equatable {
    /// Chunks of every kind.
    var chunks = 0
    /// Bytes of compressed image data (IDAT).
    var imageDataBytes = 0
    /// Bytes of ancillary chunks (text, ICC profile, EXIF, private chunks; APNG frames excepted).
    var metadataBytes = 0
    /// The bytes the header's image decompresses to: rows of filter byte plus samples (0 before IHDR).
    var declaredRawBytes = 0

    /// Reads the chunks of `bytes` (which start with the PNG signature), stopping early once a cap
    /// in `caps` is passed.
    init(_ bytes: UnsafeRawBufferPointer, stoppingPast caps: DecodeCostCaps) {
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var position = 8
        while position + 8 <= bytes.count {
            let length = word(position)
            let type = word(position + 4)
            let data = position + 8
            // A chunk that runs past the file is damage, not cost: the decoder reports it.
            guard length <= bytes.count - data else { return }
            chunks += 1
            switch type {
            case 0x4948_4452 where length >= 13 && data + 13 <= bytes.count: // IHDR
                declaredRawBytes = Self.rawBytes(width: word(data), height: word(data + 4), bitDepth: Int(bytes[data + 8]),
                                                 colourType: Int(bytes[data + 9]), interlaced: bytes[data + 12] != 0)
            case 0x4944_4154: // IDAT
                imageDataBytes += length
            case 0x4945_4E44: // IEND
                return
            case 0x6664_4154, 0x6663_544C, 0x6163_544C: // fdAT, fcTL, acTL: APNG frames, skipped by the decoder
                break
            default:
                metadataBytes += length
            }
            if chunks > caps.pngChunks || metadataBytes > caps.metadataBytes || imageDataBytes > maximumImageDataBytes { return }
            position = data + length + 4
        }
    }

    /// The most compressed data the declared image can need: zlib never grows data by more than
    /// 5 bytes per 16 KiB stored block plus its header and trailer; anything beyond is padding
    /// a decoder would inflate for nothing.
    var maximumImageDataBytes: Int {
        declaredRawBytes + declaredRawBytes / 1000 + 4096
    }

    /// Why the structure is past a cap, or nil.
    func refusal(_ caps: DecodeCostCaps) -> String? {
        if chunks > caps.pngChunks {
            return "the PNG has more than \(caps.pngChunks) chunks (decode.max_png_chunks)"
        }
        if metadataBytes > caps.metadataBytes {
            return "the PNG carries more than \(caps.metadataBytes >> 20) MiB of ancillary chunks (decode.max_metadata_mib)"
        }
        if declaredRawBytes > 0, imageDataBytes > maximumImageDataBytes {
            return "the PNG's compressed data (\(imageDataBytes) bytes) is larger than its declared \(declaredRawBytes)-byte image could need"
        }
        return nil
    }

    /// The filtered, uncompressed size of an image: per row one filter byte and the samples, per
    /// interlace pass when interlaced (0 for a header PNG does not allow).
    static func rawBytes(width: Int, height: Int, bitDepth: Int, colourType: Int, interlaced: Bool) -> Int {
        let channels: Int
        switch colourType {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return 0
        }
        guard width > 0, height > 0, width < 1 << 31, height < 1 << 31, [1, 2, 4, 8, 16].contains(bitDepth) else { return 0 }
        func passBytes(_ width: Int, _ height: Int) -> Int {
            guard width > 0, height > 0 else { return 0 }
            return height * (1 + (width * channels * bitDepth + 7) / 8)
        }
        guard interlaced else { return passBytes(width, height) }
        // Adam7: (x start, y start, x step, y step) of the seven passes.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, pass in
            total + passBytes((width - pass.0 + pass.2 - 1) / pass.2, (height - pass.1 + pass.3 - 1) / pass.3)
        }
    }
}
