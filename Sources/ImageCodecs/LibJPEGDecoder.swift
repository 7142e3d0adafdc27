import CLibJPEG
import PhotoFormat
import PhotoStructure

/// A JPEG decode through libjpeg-turbo directly: luma only (or RGB) at DCT scale M/8, with corrupt
/// data, memory and scan caps turned into `DecodeFailure`s. Owns its `pv_jpeg` pointer; use it on
/// one thread, and keep the bytes it borrows alive as long as it.
final class LibJPEGDecoder {
    private let decoder: OpaquePointer

    /// Reads the header of `bytes` with libjpeg's allocations capped at `memoryLimit` bytes and its
    /// progressive scans at `maximumScans` (`DecodeCostCaps.jpegScans`, which the structure scan
    /// already checked: the same rule, enforced again where the scans are decoded).
    init(bytes: UnsafeRawBufferPointer, memoryLimit: Int, maximumScans: Int) throws(DecodeFailure) {
        guard let base = bytes.baseAddress,
              let decoder = pv_jpeg_open(base.assumingMemoryBound(to: UInt8.self), bytes.count, memoryLimit, Int32(clamping: maximumScans)) else {
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

    /// True for YCbCr and grey files, whose decode can keep its colour for the preview and still
    /// hand out exactly the luma of a luma-only decode.
    var keepsPreviewColour: Bool {
        let space = pv_jpeg_color_space(decoder)
        return space == PV_JPEG_SPACE_YCC || space == PV_JPEG_SPACE_GRAY
    }

    /// libjpeg's working memory for a decode at `scaleNumerator`/8, in bytes.
    func estimatedMemory(luma: Bool, scaleNumerator: Int) -> Int {
        pv_jpeg_estimated_memory(decoder, luma ? 1 : 0, Int32(scaleNumerator))
    }

    /// Decodes the whole image at `scaleNumerator`/8 as luma (1 band) or RGB (3 bands), handing
    /// strips of at most `rowsPerStrip` rows to `body`, then reads on to the end marker so that
    /// damage after the last row counts too. With `keepingPreview` (luma only, on a file where
    /// `keepsPreviewColour`), the decode keeps its Y, Cb and Cr planes (libjpeg's raw data; grey,
    /// or interleaved YCbCr for sampling that planes do not suit) and returns them for the
    /// preview, shown as EXIF `orientation` says; `body` still receives luma alone, exactly a
    /// luma-only decode's. Planes' chroma is decoded no finer than `minimumChroma` (half the
    /// preview's size) needs (`pv_jpeg_start_planes`; (0, 0): as the library decodes it), and
    /// their Y is kept box-reduced where that still leaves the preview its size.
    func decode(
        luma: Bool,
        scaleNumerator: Int,
        keepingPreview: Bool = false,
        minimumChroma: (width: Int, height: Int) = (0, 0),
        orientation: Int = 1,
        fullSize: (width: Int, height: Int)? = nil,
        rowsPerStrip: Int,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws -> PreviewPixels? {
        let keeping = keepingPreview && luma && keepsPreviewColour
        if keeping && pv_jpeg_color_space(decoder) == PV_JPEG_SPACE_YCC {
            switch pv_jpeg_start_planes(decoder, Int32(scaleNumerator), Int32(clamping: minimumChroma.width), Int32(clamping: minimumChroma.height)) {
            case 0:
                return try decodePlanes(minimumChroma: minimumChroma, orientation: orientation, fullSize: fullSize, rowsPerStrip: rowsPerStrip,
                                        begin: begin, body: body)
            case 1:
                break
            default:
                throw failure()
            }
        }
        guard pv_jpeg_start(decoder, keeping ? 2 : (luma ? 1 : 0), Int32(scaleNumerator)) == 0 else { throw failure() }
        let width = Int(pv_jpeg_output_width(decoder)), height = Int(pv_jpeg_output_height(decoder))
        let bands = Int(pv_jpeg_output_bands(decoder))
        try begin(PixelGeometry(width: width, height: height, bands: keeping ? 1 : bands))
        let stride = width * bands
        guard keeping else {
            let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * rowsPerStrip)
            defer { strip.deallocate() }
            var top = 0
            while top < height {
                let rows = pv_jpeg_read_rows(decoder, strip, stride, Int32(rowsPerStrip))
                guard rows > 0 else { throw failure() }
                try body(strip, top, Int(rows), stride)
                top += Int(rows)
            }
            guard pv_jpeg_finish(decoder) == 0 else { throw failure() }
            return nil
        }
        let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
        let kept = PreviewPixels(layout: .interleaved(bands: bands), width: width, height: height, samples: samples)
        kept.orientation = PreviewPixels.orientation(exif: orientation)
        kept.fullSize = fullSize
        // Y is taken out of the YCbCr rows for the blur check.
        let luma = bands == 1 ? nil : UnsafeMutablePointer<UInt8>.allocate(capacity: width * rowsPerStrip)
        defer { luma?.deallocate() }
        var top = 0
        while top < height {
            let rows = Int(pv_jpeg_read_rows(decoder, samples + top * stride, stride, Int32(min(rowsPerStrip, height - top))))
            guard rows > 0 else { throw failure() }
            if let luma {
                for row in 0..<rows {
                    let source = samples + (top + row) * stride, target = luma + row * width
                    for x in 0..<width {
                        target[x] = source[x * 3]
                    }
                }
                try body(luma, top, rows, width)
            } else {
                try body(samples + top * stride, top, rows, stride)
            }
            top += rows
        }
        guard pv_jpeg_finish(decoder) == 0 else { throw failure() }
        return kept
    }

    /// The rest of `decode` for a decode started as planes: Y, Cb and Cr each in its own
    /// buffer, with strips of the Y plane handed to `body`. Cb and Cr are kept whole for the
    /// preview; so is Y, unless a preview of `minimumChroma` (half its size) leaves room for
    /// box-reducing it by a power of two as its strips go by (`lumaReduction`), which keeps only
    /// that reduced plane and a strip of rows instead of the whole picture.
    private func decodePlanes(
        minimumChroma: (width: Int, height: Int),
        orientation: Int,
        fullSize: (width: Int, height: Int)?,
        rowsPerStrip: Int,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws -> PreviewPixels {
        var planes = pv_jpeg_planes()
        guard pv_jpeg_planes_geometry(decoder, &planes) == 0 else { throw failure() }
        let width = Int(pv_jpeg_output_width(decoder)), height = Int(pv_jpeg_output_height(decoder))
        try begin(PixelGeometry(width: width, height: height, bands: 1))
        let lumaWidth = Int(planes.luma_width), lumaHeight = Int(planes.luma_height)
        let chromaWidth = Int(planes.chroma_width), chromaHeight = Int(planes.chroma_height)
        let shiftX = Int(planes.shift_x), shiftY = Int(planes.shift_y), rowsPerRead = Int(planes.rows_per_read)
        // The preview's planar layout derives chroma's size from luma's.
        guard PreviewPixels.chromaSize(width: lumaWidth, height: lumaHeight, shiftX: shiftX, shiftY: shiftY) == (chromaWidth, chromaHeight),
              rowsPerRead <= rowsPerStrip, height <= lumaHeight, width <= lumaWidth else {
            throw DecodeFailure(.libraryFailure, "libjpeg's planes (\(lumaWidth)x\(lumaHeight), chroma \(chromaWidth)x\(chromaHeight)) do not fit its \(width)x\(height) picture")
        }
        let reduction = Self.lumaReduction(width: width, height: height, shiftX: shiftX, shiftY: shiftY, minimumChroma: minimumChroma)
        // The whole Y plane, or a strip's rows and one more read's.
        let lumaRows = reduction == 1 ? lumaHeight : rowsPerStrip + rowsPerRead
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: lumaWidth * lumaRows)
        let cb = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaWidth * chromaHeight)
        let cr = UnsafeMutablePointer<UInt8>.allocate(capacity: chromaWidth * chromaHeight)
        let reducer = reduction == 1 ? nil : PreviewReducer(width: width, height: height, bands: 1, factor: reduction)
        var decoded = 0, delivered = 0, top = 0
        do {
            while decoded < height {
                let rows = Int(pv_jpeg_read_planes(decoder, luma + (decoded - top) * lumaWidth, lumaWidth,
                                                   cb + (decoded >> shiftY) * chromaWidth, cr + (decoded >> shiftY) * chromaWidth, chromaWidth))
                guard rows > 0, decoded + rows <= lumaHeight, decoded - top + rows <= lumaRows else { throw failure() }
                decoded += rows
                // Whole strips as the other decodes give them; the rest once the picture is complete.
                let ready = min(decoded, height)
                while ready - delivered >= rowsPerStrip || (ready == height && delivered < height) {
                    let count = min(rowsPerStrip, ready - delivered)
                    let strip = luma + (delivered - top) * lumaWidth
                    try body(strip, delivered, count, lumaWidth)
                    reducer?.append(rows: strip, count: count, rowStride: lumaWidth)
                    delivered += count
                }
                if reducer != nil, delivered > top, decoded < height {
                    // The rows not handed out yet (fewer than a strip, so not overlapping the
                    // delivered ones they replace) move to the top for the next read.
                    let waiting = decoded - delivered
                    guard waiting <= delivered - top else { throw DecodeFailure(.libraryFailure, "libjpeg's reads outran the strips") }
                    luma.update(from: luma + (delivered - top) * lumaWidth, count: waiting * lumaWidth)
                    top = delivered
                }
            }
            guard pv_jpeg_finish(decoder) == 0 else { throw failure() }
        } catch {
            luma.deallocate()
            cb.deallocate()
            cr.deallocate()
            throw error
        }
        let kept: PreviewPixels
        if let reducer {
            // The reduced picture in a plane as many times smaller than the MCU-padded one, so
            // that chroma's planes keep their size relative to it.
            luma.deallocate()
            let shift = reduction.trailingZeroBitCount
            let reducedWidth = lumaWidth / reduction, reducedHeight = lumaHeight / reduction
            let samples = UnsafeMutablePointer<UInt8>.allocate(capacity: reducedWidth * reducedHeight)
            samples.initialize(repeating: 0, count: reducedWidth * reducedHeight)
            let picture = reducer.pixels
            for row in 0..<picture.height {
                (samples + row * reducedWidth).update(from: picture.samples + row * picture.width, count: picture.width)
            }
            kept = PreviewPixels(layout: .planar(chromaShiftX: shiftX - shift, chromaShiftY: shiftY - shift),
                                 width: reducedWidth, height: reducedHeight, samples: samples, cb: cb, cr: cr)
            kept.crop = (0, 0, picture.width, picture.height)
        } else {
            kept = PreviewPixels(layout: .planar(chromaShiftX: shiftX, chromaShiftY: shiftY), width: lumaWidth, height: lumaHeight,
                                 samples: luma, cb: cb, cr: cr)
            kept.crop = (0, 0, width, height)
        }
        kept.orientation = PreviewPixels.orientation(exif: orientation)
        kept.fullSize = fullSize
        return kept
    }

    /// The power of two (at most 8, and at most what chroma is subsampled by both ways, so
    /// chroma stays a whole power of two of the reduced luma) that a `width` x `height` Y plane
    /// may be box-reduced by and still be at least twice `minimumChroma` (the preview's size);
    /// 1 without a minimum.
    static func lumaReduction(width: Int, height: Int, shiftX: Int, shiftY: Int, minimumChroma: (width: Int, height: Int)) -> Int {
        guard minimumChroma.width > 0, minimumChroma.height > 0 else { return 1 }
        var factor = 1
        while factor < 8, factor < 1 << min(shiftX, shiftY),
              width / (factor * 2) >= 2 * minimumChroma.width, height / (factor * 2) >= 2 * minimumChroma.height {
            factor *= 2
        }
        return factor
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
