import CVips
import PhotoFormat
import PhotoStructure

/// A photo whose header has been read; its pixels are decoded on demand, strip by strip.
///
/// Owns the libvips image (JPEG, PNG, WebP) or the Swift-read HEIF container (HEIC, which libvips
/// never sees), for JPEG the libjpeg decoder, for a still WebP libwebp's, and a copy of the encoded
/// bytes, which they borrow for as long as the image lives; opened without copying (a decode
/// worker's photo in its shared memory, `ImageDecoder.open(_:copying:)`), it borrows its caller's
/// bytes, which must stay unchanged until it is gone. Use it on one thread.
public final class EncodedImage {
    /// The container format.
    public let format: ImageFormat
    /// What the header declares.
    public let header: ImageHeader
    /// libvips' image of a JPEG, PNG or animated WebP; nil for HEIC and a still WebP (libwebp's).
    private var image: UnsafeMutablePointer<VipsImage>?
    /// Samples a pixel in libvips' header (0 for HEIC).
    private let bands: Int
    private let data: UnsafeMutableRawBufferPointer
    /// False when `data` is the caller's, which outlives this image (`ImageDecoder.open(_:copying:)`).
    private let ownsData: Bool
    /// The libjpeg decoder for JPEGs in a colour space it handles; nil for CMYK/YCCK and other formats.
    private let jpeg: LibJPEGDecoder?
    /// The FFmpeg path of every HEIC photo.
    private let heif: HEIFDecoder?
    /// libwebp's decoder for a still WebP libvips reads as RGB or RGBA; nil otherwise (animations).
    private let webp: LibWebPDecoder?
    private var consumed = false
    /// The pixels the decode kept for the content check's preview, when its plan asked.
    private var previewPixels: PreviewPixels?
    /// This photo's claim on libvips' error text, held from the header read until `deinit`.
    private let errorTicket: VipsErrorAttribution.Ticket?

    init(
        image: UnsafeMutablePointer<VipsImage>, data: UnsafeMutableRawBufferPointer, format: ImageFormat,
        jpeg: LibJPEGDecoder?, webp: LibWebPDecoder? = nil, errorTicket: VipsErrorAttribution.Ticket, ownsData: Bool = true
    ) {
        self.image = image
        self.errorTicket = errorTicket
        self.data = data
        self.ownsData = ownsData
        self.format = format
        self.jpeg = jpeg
        self.heif = nil
        // libwebp decodes only what libvips would hand out as 8-bit RGB or RGBA.
        let bands = Int(vips_image_get_bands(image))
        self.bands = bands
        self.webp = (bands == 3 || bands == 4) && vips_image_get_format(image) == VIPS_FORMAT_UCHAR ? webp : nil
        self.header = ImageHeader(
            format: format,
            storedWidth: Int(vips_image_get_width(image)),
            storedHeight: Int(vips_image_get_height(image)),
            orientation: Int(pv_image_get_orientation(image))
        )
        // libvips' WebP header read reserves a frame of 4 bytes a pixel for the pixels it would
        // decode (address space a worker's limit counts, untouched): a still WebP goes to libwebp,
        // so that frame is given back before the decode. Only `lumaPaths: false` opens it again.
        if self.webp != nil {
            pv_object_unref(image)
            self.image = nil
        }
    }

    /// A HEIC photo: its header is the container's displayed picture (turns and mirrors are
    /// applied by the decode, so the orientation is 1).
    init(heif: HEIFContainer, data: UnsafeMutableRawBufferPointer, ownsData: Bool = true) {
        self.image = nil
        self.errorTicket = nil
        self.data = data
        self.ownsData = ownsData
        self.format = .heif
        self.jpeg = nil
        self.webp = nil
        self.bands = 0
        self.heif = HEIFDecoder(container: heif)
        self.header = ImageHeader(format: .heif, storedWidth: heif.displayedWidth, storedHeight: heif.displayedHeight, orientation: 1)
    }

    /// True when the decoder itself spreads the photo over the threads its plan allows (a HEIC's
    /// tiles) and hands each strip out from whichever of them completed it: the strips need no
    /// thread of their own beside it, and `body` may run on those threads.
    public var spreadsOverThreads: Bool { heif != nil }

    deinit {
        if let image { pv_object_unref(image) }
        if ownsData { data.deallocate() }
        if let errorTicket { VipsErrorAttribution.end(errorTicket) }
    }

    /// The plan for measuring at `targetShortSide` (nil: native scale, full RGB for parity with
    /// OpenCV). JPEG is decoded at the smallest DCT scale M/8 that keeps the shortest side at or
    /// above the target, as luma only when the plane is resampled anyway; HEIC as luma through
    /// FFmpeg always. With `preview`, JPEG (YCbCr or grey) and HEIC keep the decoded colour for the
    /// preview, a JPEG at a scale that serves both; PNG and WebP keep a copy box-reduced by the
    /// whole factor that still leaves at least the preview's size (`PreviewReducer`).
    /// A still WebP is decoded by libwebp into one buffer (`LibWebPDecoder`), an animation by libvips.
    /// `lumaPaths: false` decodes RGB (libjpeg for JPEG, libvips for PNG and every WebP) even when
    /// luma would do: what the fidelity tests and `bench --compare-paths` measure the luma paths
    /// and libwebp's decode against.
    /// `threads` is how many threads the decode may use (a HEIC's tiles; other formats use one).
    public func plan(targetShortSide: Int?, lumaPaths: Bool = true, preview: PreviewEncoder? = nil, threads: Int = 1) -> DecodePlan {
        if let heif {
            let keep = preview != nil
            // More threads than tiles would hold decoders that never decode.
            let used = min(max(threads, 1), heif.container.tiles.count)
            var plan = DecodePlan(decoder: .ffmpegHEVC, scaleNumerator: 8, luma: true, estimatedBytes: heif.estimatedBytes(keepingChroma: keep, threads: used), keepsPreview: keep)
            plan.threads = used
            return plan
        }
        let pixels = header.pixelCount
        if format == .webp {
            if let webp, lumaPaths {
                return reducedPreview(DecodePlan(decoder: .libwebp, scaleNumerator: 8, luma: false, estimatedBytes: webp.estimatedMemory(bands: bands)),
                                      preview: preview, bands: bands)
            }
            // libvips holds the canvas about twice; with alpha the copy it keeps is four bytes a
            // pixel, not three: one more (8.5 measured).
            let canvas = pixels * (DecodePlan.webpBytesPerPixel + (bands == 4 ? 1 : 0))
            return reducedPreview(DecodePlan(decoder: .libvips, scaleNumerator: 8, luma: false, estimatedBytes: canvas + header.storedWidth * max(bands, 3) * 256),
                                  preview: preview, bands: bands)
        }
        guard let image else { preconditionFailure("an image is either HEIC or read by libvips") }
        let sampleBytes = vips_image_get_format(image) == VIPS_FORMAT_USHORT ? 2 : 1
        let interlaced = pv_image_get_int(image, "interlaced", 0) != 0
        let streamingRows = header.storedWidth * max(bands, 3) * sampleBytes * 256
        switch format {
        case .jpeg:
            if let jpeg {
                let numerator = Self.smallestScaleNumerator(shortestSide: header.shortestSide, target: targetShortSide, powersOfTwo: false)
                let luma = targetShortSide != nil && lumaPaths
                let plain = DecodePlan(decoder: .libjpeg, scaleNumerator: numerator, luma: luma, estimatedBytes: jpeg.estimatedMemory(luma: luma, scaleNumerator: numerator))
                guard let preview, luma, jpeg.keepsPreviewColour else { return plain }
                // The analysis keeps its scale (the verdict may not depend on whether a preview is
                // wanted); when that decode holds fewer pixels than the preview wants (a nearly
                // square photo), the preview is decoded again instead.
                let scale = preview.fittingScale(width: header.storedWidth, height: header.storedHeight)
                let wanted = (width: Int((Double(header.storedWidth) * scale).rounded()), height: Int((Double(header.storedHeight) * scale).rounded()))
                guard (header.storedWidth * numerator + 7) / 8 >= wanted.width, (header.storedHeight * numerator + 7) / 8 >= wanted.height else {
                    return plain
                }
                let kept = ((header.storedWidth * numerator + 7) / 8) * ((header.storedHeight * numerator + 7) / 8) * 3
                var keeping = DecodePlan(
                    decoder: .libjpeg, scaleNumerator: numerator, luma: true,
                    estimatedBytes: jpeg.estimatedMemory(luma: false, scaleNumerator: numerator) + kept, keepsPreview: true
                )
                // The preview's chroma is half its size (4:2:0); one more sample each way covers
                // the rounding of a size fitted to the displayed rather than the stored picture.
                keeping.previewChromaWidth = wanted.width / 2 + 2
                keeping.previewChromaHeight = wanted.height / 2 + 2
                return keeping
            }
            // CMYK and YCCK go through libvips, whose shrink-on-load takes powers of two only.
            let numerator = Self.smallestScaleNumerator(shortestSide: header.shortestSide, target: targetShortSide, powersOfTwo: true)
            return DecodePlan(decoder: .libvips, scaleNumerator: numerator, luma: false, estimatedBytes: interlaced ? pixels * 5 + streamingRows : streamingRows * 2)
        case .png:
            return reducedPreview(DecodePlan(decoder: .libvips, scaleNumerator: 8, luma: false, estimatedBytes: interlaced ? pixels * bands * sampleBytes + streamingRows : streamingRows),
                                  preview: preview, bands: bands)
        case .webp, .heif:
            preconditionFailure("HEIC and WebP are planned above")
        }
    }

    /// `plan` keeping, for `preview`, the decoded pixels box-reduced by the largest whole factor
    /// that leaves at least the preview's size; `plan` itself without a preview.
    private func reducedPreview(_ plan: DecodePlan, preview: PreviewEncoder?, bands: Int) -> DecodePlan {
        guard let preview else { return plan }
        let scale = preview.fittingScale(width: header.storedWidth, height: header.storedHeight)
        let factor = min(max(1, Int((1 / scale).rounded(.down))), PreviewReducer.maximumFactor)
        let kept = PreviewReducer.estimatedBytes(width: header.storedWidth, height: header.storedHeight, bands: min(max(bands, 1), 4), factor: factor)
        var reduced = DecodePlan(decoder: plan.decoder, scaleNumerator: plan.scaleNumerator, luma: plan.luma, estimatedBytes: plan.estimatedBytes + kept, keepsPreview: true)
        reduced.previewReduction = factor
        return reduced
    }

    /// The smallest M in 1...8 (or among 1, 2, 4, 8) with ceil(shortestSide * M / 8) >= target.
    static func smallestScaleNumerator(shortestSide: Int, target: Int?, powersOfTwo: Bool) -> Int {
        guard let target, target > 0 else { return 8 }
        let candidates = powersOfTwo ? [1, 2, 4, 8] : Array(1...8)
        // libvips crops a shrunk decode to floor(n / shrink); libjpeg rounds up.
        let scaled: (Int) -> Int = powersOfTwo ? { shortestSide / (8 / $0) } : { (shortestSide * $0 + 7) / 8 }
        return candidates.first { scaled($0) >= target } ?? 8
    }

    /// Decodes the pixels as 8-bit samples and hands them to `body` in strips of whole rows, top
    /// to bottom, so memory stays bounded by the strip size rather than the image size.
    ///
    /// - Parameters:
    ///   - plan: from `plan(targetShortSide:)`.
    ///   - rowsPerStrip: how many rows each call of `body` receives at most.
    ///   - begin: called once with the decoded geometry before the first strip.
    ///   - body: receives each strip, its first row index, row count and the bytes between rows;
    ///     with `spreadsOverThreads` and more than one plan thread, on the decoder's threads, one
    ///     call at a time and strips in order, so it must not rely on the caller's thread.
    /// - Throws: `DecodeFailure` when the data is truncated, corrupt or needs more memory than the
    ///   budget, or what `body` throws.
    /// Call it once per image: the decoders read the data sequentially.
    public func decodeStrips(
        plan: DecodePlan,
        rowsPerStrip: Int = 64,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws {
        precondition(!consumed, "an EncodedImage decodes once: its decoders read it sequentially")
        consumed = true
        if let jpeg {
            previewPixels = try jpeg.decode(
                luma: plan.luma, scaleNumerator: plan.scaleNumerator, keepingPreview: plan.keepsPreview,
                minimumChroma: (plan.previewChromaWidth, plan.previewChromaHeight),
                orientation: header.orientation, fullSize: (header.width, header.height), rowsPerStrip: rowsPerStrip, begin: begin, body: body
            )
            return
        }
        if let heif {
            previewPixels = try heif.decode(
                UnsafeRawBufferPointer(data), rowsPerStrip: rowsPerStrip, keepingPreview: plan.keepsPreview, threads: plan.threads, begin: begin, body: body
            )
            return
        }
        if plan.decoder == .libwebp, let webp {
            let reducer = try webp.decode(
                UnsafeRawBufferPointer(data), bands: bands, threads: plan.threads, rowsPerStrip: rowsPerStrip,
                begin: begin, body: body
            ) { bands in
                plan.keepsPreview
                    ? PreviewReducer(width: header.storedWidth, height: header.storedHeight, bands: bands, factor: plan.previewReduction) : nil
            }
            if let reducer {
                reducer.pixels.orientation = PreviewPixels.orientation(exif: header.orientation)
                reducer.pixels.fullSize = (header.width, header.height)
                previewPixels = reducer.pixels
            }
            return
        }
        let loaded = try loadedImage(shrink: 8 / plan.scaleNumerator)
        defer { pv_object_unref(loaded) }
        let normalized = try eightBitImage(from: loaded)
        defer { pv_object_unref(normalized) }

        let geometry = PixelGeometry(
            width: Int(vips_image_get_width(normalized)),
            height: Int(vips_image_get_height(normalized)),
            bands: Int(vips_image_get_bands(normalized))
        )
        try begin(geometry)
        let reducer = plan.keepsPreview && (1...4).contains(geometry.bands) && geometry.width > 0 && geometry.height > 0
            ? PreviewReducer(width: geometry.width, height: geometry.height, bands: geometry.bands, factor: plan.previewReduction) : nil
        guard let region = vips_region_new(normalized) else {
            throw corruptPixels()
        }
        defer { pv_region_unref(region) }
        var top = 0
        while top < geometry.height {
            let count = min(rowsPerStrip, geometry.height - top)
            guard let rows = pv_region_rows(region, Int32(top), Int32(geometry.width), Int32(count)) else {
                throw corruptPixels()
            }
            try body(rows, top, count, pv_region_row_stride(region))
            reducer?.append(rows: rows, count: count, rowStride: pv_region_row_stride(region))
            top += count
        }
        if let reducer {
            reducer.pixels.orientation = PreviewPixels.orientation(exif: header.orientation)
            reducer.pixels.fullSize = (header.width, header.height)
            previewPixels = reducer.pixels
        }
    }

    /// True once the decode has kept pixels for the preview (its plan asked, and it decoded).
    public var keptPreviewPixels: Bool { previewPixels != nil }

    /// The preview JPEG for the content check: from the pixels the decode kept when its plan
    /// said so (JPEG, HEIC, PNG, WebP), otherwise decoded again by the format's libvips loader
    /// (CMYK JPEG, or a decode planned without the preview).
    ///
    /// - Throws: `DecodeFailure` when the preview cannot be decoded or encoded.
    public func preview(using encoder: PreviewEncoder) throws(DecodeFailure) -> PreviewImage {
        if let previewPixels {
            return try encoder.preview(from: previewPixels)
        }
        guard heif == nil else {
            throw DecodeFailure(.libraryFailure, "the HEIC decode kept no pixels for the preview: plan it with the preview encoder")
        }
        return try encoder.preview(of: UnsafeRawBufferPointer(data), format: format)
    }

    private func loadedImage(shrink: Int) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
        guard let image else {
            // A still WebP's libvips image was given back after its header (libwebp decodes it):
            // `lumaPaths: false` opens it again.
            guard format == .webp,
                  let reopened = pv_load_buffer(format.loaderIndex, data.baseAddress, data.count, Int32(ImageDecoder.failOn(format).rawValue), 1) else {
                throw DecodeFailure(.libraryFailure, "libvips has no image of this photo")
            }
            return reopened
        }
        // A JPEG that reaches libvips (CMYK, YCCK) is loaded again, strictly: libvips cannot tell
        // corrupt-data warnings from benign ones, and such files do not come from phone cameras.
        guard format == .jpeg else {
            g_object_ref(image)
            return image
        }
        var shrunk: UnsafeMutablePointer<VipsImage>?
        guard pv_jpegload_buffer(data.baseAddress, data.count, Int32(shrink), Int32(VIPS_FAIL_ON_WARNING.rawValue), &shrunk) == 0, let shrunk else {
            throw corruptPixels()
        }
        return shrunk
    }

    /// Converts whatever the loader produced (16-bit, CMYK, Lab...) to 8-bit grey or sRGB samples.
    private func eightBitImage(from input: UnsafeMutablePointer<VipsImage>) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
        let format = vips_image_get_format(input)
        let interpretation = vips_image_get_interpretation(input)
        let bands = vips_image_get_bands(input)
        if format == VIPS_FORMAT_UCHAR, (1...4).contains(bands), interpretation != VIPS_INTERPRETATION_CMYK {
            g_object_ref(input)
            return input
        }
        var current = input
        g_object_ref(current)
        func step(_ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws(DecodeFailure) {
            var next: UnsafeMutablePointer<VipsImage>?
            let status = operation(current, &next)
            pv_object_unref(current)
            guard status == 0, let next else { throw corruptPixels() }
            current = next
        }
        if format == VIPS_FORMAT_USHORT,
           interpretation == VIPS_INTERPRETATION_RGB16 || interpretation == VIPS_INTERPRETATION_GREY16 {
            // Keep the high byte, as OpenCV and libpng's strip_16 do for 16-bit PNGs.
            try step { pv_shift_right_8($0, $1) }
        } else {
            try step { pv_colourspace_srgb($0, $1) }
        }
        try step { pv_cast_uchar($0, $1) }
        return current
    }

    private func corruptPixels() -> DecodeFailure {
        let detail = errorTicket.map { VipsErrorAttribution.message(for: $0) } ?? "no detail"
        return DecodeFailure(.corruptPixels, "the \(format.rawValue) pixel data is truncated or corrupt: \(detail)")
    }
}
