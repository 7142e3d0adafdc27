/// What a WebP's RIFF structure asks of a decoder: its frames, where they lie on the canvas, and
/// its metadata. libwebp's demuxer finds the n-th frame by walking from the first, so a reader
/// that visits every frame costs frames squared: 100,000 tiny frames held a worker for 30 s.
struct WebPStructure {
    /// Top-level chunks.
    var chunks = 0
    /// Animation frames (ANMF chunks); 0 for a still image.
    var frames = 0
    /// Bytes of ICCP, EXIF, XMP and unknown chunks.
    var metadataBytes = 0
    /// The VP8X canvas, when the file has one.
    var canvas: (width: Int, height: Int)?
    /// The first frame that does not fit on the canvas, described, or nil.
    var misplacedFrame: String?

    /// Reads the chunks of `bytes` (which start with a RIFF WEBP header), stopping early once a
    /// cap in `caps` is passed.
    init(_ bytes: UnsafeRawBufferPointer, stoppingPast caps: DecodeCostCaps) {
        func little(_ at: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        // The RIFF size may claim less than the upload: chunks past it are not the image's.
        let end = min(bytes.count, 8 + little(4, 4))
        var position = 12
        while position + 8 <= end {
            let type = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
            let length = little(position + 4, 4)
            let data = position + 8
            // A chunk that runs past the file is damage, not cost: the decoder reports it.
            guard length <= end - data else { return }
            chunks += 1
            switch type {
            case "VP8X" where length >= 10 && data + 10 <= end:
                canvas = (little(data + 4, 3) + 1, little(data + 7, 3) + 1)
            case "ANMF":
                frames += 1
                if length >= 16, data + 16 <= end, misplacedFrame == nil {
                    let x = 2 * little(data, 3), y = 2 * little(data + 3, 3)
                    let width = little(data + 6, 3) + 1, height = little(data + 9, 3) + 1
                    if let canvas, x + width > canvas.width || y + height > canvas.height {
                        misplacedFrame = "frame \(frames) (\(width)x\(height) at \(x),\(y)) does not fit its \(canvas.width)x\(canvas.height) canvas"
                    }
                }
            case "VP8 ", "VP8L", "ALPH", "ANIM":
                break
            default:
                metadataBytes += length
            }
            if chunks > caps.webpFrames + 16 || frames > caps.webpFrames || metadataBytes > caps.metadataBytes { return }
            position = data + length + (length & 1)
        }
    }

    /// Why the structure is past a cap, or nil.
    func refusal(_ caps: DecodeCostCaps) -> String? {
        if frames > caps.webpFrames {
            return "the animated WebP has more than \(caps.webpFrames) frames; only its first is checked (decode.max_webp_frames)"
        }
        if chunks > caps.webpFrames + 16 {
            return "the WebP has more than \(caps.webpFrames + 16) chunks (decode.max_webp_frames)"
        }
        if let misplacedFrame {
            return "the animated WebP lies about its canvas: \(misplacedFrame)"
        }
        if metadataBytes > caps.metadataBytes {
            return "the WebP carries more than \(caps.metadataBytes >> 20) MiB of metadata chunks (decode.max_metadata_mib)"
        }
        return nil
    }
}
