import CLibJPEG

/// A JPEG decode through libjpeg-turbo directly: luma only (or RGB) at DCT scale M/8, with corrupt
/// data, memory and scan caps turned into `DecodeFailure`s. Owns its `pv_jpeg` pointer; use it on
/// one thread, and keep the bytes it borrows alive as long as it.
final class LibJPEGDecoder {
    /// Progressive files with more scans than this are refused: libjpeg's advice against files
    /// made to decode slowly (a real camera writes about 10).
    static let maximumScans = 256

    private let decoder: OpaquePointer

    /// Reads the header of `bytes` with libjpeg's allocations capped at `memoryLimit` bytes.
    init(bytes: UnsafeRawBufferPointer, memoryLimit: Int) throws(DecodeFailure) {
        guard let base = bytes.baseAddress,
              let decoder = pv_jpeg_open(base.assumingMemoryBound(to: UInt8.self), bytes.count, memoryLimit, Int32(Self.maximumScans)) else {
            throw DecodeFailure(.corruptPixels, "no memory for a JPEG decoder")
        }
        self.decoder = decoder
        if pv_jpeg_status_of(decoder) != PV_JPEG_OK {
            throw failure()
        }
    }

    deinit {
        pv_jpeg_close(decoder)
    }

    /// False for CMYK and YCCK files, which libvips decodes instead.
    var isSupportedColorSpace: Bool {
        pv_jpeg_color_space(decoder) != PV_JPEG_SPACE_OTHER
    }

    /// libjpeg's working memory for a decode at `scaleNumerator`/8, in bytes.
    func estimatedMemory(luma: Bool, scaleNumerator: Int) -> Int {
        pv_jpeg_estimated_memory(decoder, luma ? 1 : 0, Int32(scaleNumerator))
    }

    /// Decodes the whole image at `scaleNumerator`/8 as luma (1 band) or RGB (3 bands), handing
    /// strips of at most `rowsPerStrip` rows to `body`, then reads on to the end marker so that
    /// damage after the last row counts too.
    func decode(
        luma: Bool,
        scaleNumerator: Int,
        rowsPerStrip: Int,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws {
        guard pv_jpeg_start(decoder, luma ? 1 : 0, Int32(scaleNumerator)) == 0 else { throw failure() }
        let geometry = PixelGeometry(
            width: Int(pv_jpeg_output_width(decoder)),
            height: Int(pv_jpeg_output_height(decoder)),
            bands: Int(pv_jpeg_output_bands(decoder))
        )
        try begin(geometry)
        let stride = geometry.width * geometry.bands
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * rowsPerStrip)
        defer { strip.deallocate() }
        var top = 0
        while top < geometry.height {
            let rows = pv_jpeg_read_rows(decoder, strip, stride, Int32(rowsPerStrip))
            guard rows > 0 else {
                throw failure()
            }
            try body(strip, top, Int(rows), stride)
            top += Int(rows)
        }
        guard pv_jpeg_finish(decoder) == 0 else { throw failure() }
    }

    /// The failure the C decoder recorded (every C call that returns an error records one).
    private func failure() -> DecodeFailure {
        let message = String(cString: pv_jpeg_message(decoder))
        switch pv_jpeg_status_of(decoder) {
        case PV_JPEG_MEMORY:
            return DecodeFailure(.memoryLimitExceeded, "decoding this JPEG needs more than the decode memory budget (libjpeg: \(message))")
        case PV_JPEG_TOO_MANY_SCANS:
            return DecodeFailure(.corruptPixels, "the JPEG is built to decode slowly: \(message)")
        case PV_JPEG_UNSUPPORTED:
            return DecodeFailure(.unsupportedFormat, message)
        default:
            return DecodeFailure(.corruptPixels, "the JPEG data is corrupt: \(message.isEmpty ? "the decoder stopped" : message)")
        }
    }
}
