import CLibWebP
import PhotoFormat

/// A still WebP decoded by libwebp itself into one buffer this decoder allocates, as RGB or RGBA
/// exactly as libvips' loader decodes it, and handed out in strips from there. libvips' loader
/// cannot stream a WebP either, but holds the canvas twice more (libwebp's frame and the image
/// it is copied into, then a third copy in a sandboxed worker); here the buffer libwebp writes is
/// the only canvas. Keep the bytes it borrows alive as long as it.
struct LibWebPDecoder {
    /// The picture's size as its headers declare it.
    let width: Int
    let height: Int
    /// True for a lossless (VP8L) bitstream, which libwebp decodes into a whole-picture ARGB
    /// buffer of its own before converting rows into the output.
    let isLossless: Bool
    /// True when the file declares alpha.
    let hasAlpha: Bool

    /// Reads the headers of `bytes`, already sniffed as WebP; nil for an animation (libvips
    /// composes its first frame) or headers libwebp cannot read (libvips reports those).
    init?(bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return nil }
        var features = pv_webp_features()
        guard pv_webp_features_of(base.assumingMemoryBound(to: UInt8.self), bytes.count, &features) == 0,
              features.has_animation == 0, features.width > 0, features.height > 0 else {
            return nil
        }
        width = Int(features.width)
        height = Int(features.height)
        // A mixed or unknown bitstream is counted as the costlier kind.
        isLossless = features.format != 1
        hasAlpha = features.has_alpha != 0
    }

    /// The memory a decode to `bands` samples a pixel holds, in bytes: the output buffer, and
    /// libwebp's own: a lossless picture's whole ARGB image (4 bytes a pixel: its back-references
    /// may reach any earlier pixel, so libwebp cannot decode it in rows) and a few rows; a lossy
    /// picture's decoded alpha plane (1 byte a pixel, and as much again for the lossless alpha
    /// bitstream's own pixels) and its macroblock rows' caches (about 90 rows); and a margin of
    /// 1/32 and 4 MiB for what the worker holds beside them (measured at 100 MP: docs/decoding.md).
    func estimatedMemory(bands: Int) -> Int {
        let pixels = width * height
        let output = pixels * bands
        let held = isLossless ? output + pixels * 4 + width * 4 * 64 : output + (hasAlpha ? pixels * 2 : 0) + width * 2 * 96
        return held + held / 32 + (4 << 20)
    }

    /// Decodes the whole picture into one buffer of `bands` (3 or 4) samples a pixel, then hands
    /// it to `body` in strips of at most `rowsPerStrip` rows; `reducer` sees every strip after
    /// `body`. `threads` above 1 lets libwebp filter a lossy picture on a second thread.
    func decode(
        _ bytes: UnsafeRawBufferPointer, bands: Int, threads: Int, rowsPerStrip: Int,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void,
        reducer: (Int) -> PreviewReducer?
    ) throws -> PreviewReducer? {
        precondition(bands == 3 || bands == 4, "libwebp decodes RGB or RGBA")
        guard let base = bytes.baseAddress else { throw DecodeFailure(.corruptPixels, "the webp data is empty") }
        let stride = width * bands
        let (size, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, stride <= Int(Int32.max) else {
            throw DecodeFailure(.pixelLimitExceeded, "the webp declares \(width)x\(height) pixels, more than a buffer can hold")
        }
        let canvas = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { canvas.deallocate() }
        let status = pv_webp_decode(base.assumingMemoryBound(to: UInt8.self), bytes.count, canvas, size, Int32(stride), bands == 4 ? 1 : 0, threads > 1 ? 1 : 0)
        guard status == 0 else {
            let reason = String(cString: pv_webp_status_text(status))
            // VP8_STATUS_OUT_OF_MEMORY: libwebp's own buffers did not fit the worker's memory.
            if status == 1 {
                throw DecodeFailure(.memoryLimitExceeded, "libwebp ran out of memory decoding the \(width)x\(height) webp")
            }
            throw DecodeFailure(.corruptPixels, "the webp pixel data is truncated or corrupt: libwebp: \(reason)")
        }
        try begin(PixelGeometry(width: width, height: height, bands: bands))
        let kept = reducer(bands)
        var top = 0
        while top < height {
            let count = min(rowsPerStrip, height - top)
            let rows = UnsafePointer(canvas + top * stride)
            try body(rows, top, count, stride)
            kept?.append(rows: rows, count: count, rowStride: stride)
            top += count
        }
        return kept
    }

    /// libwebp's decoder version, as `major.minor.revision`.
    static var version: String {
        let version = pv_webp_library_version()
        return "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF)"
    }
}
