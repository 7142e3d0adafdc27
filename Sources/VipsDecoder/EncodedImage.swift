import CVips

/// A photo whose header has been read; its pixels are decoded on demand, strip by strip.
///
/// Owns a copy of the encoded bytes (libvips, libjpeg and FFmpeg borrow them for as long as the
/// image lives), the libvips image and, for JPEG, the libjpeg decoder. Use it on one thread.
public final class EncodedImage {
    /// The container format.
    public let format: ImageFormat
    /// What the header declares.
    public let header: ImageHeader
    private let image: UnsafeMutablePointer<VipsImage>
    private let data: UnsafeMutableRawBufferPointer
    /// The libjpeg decoder for JPEGs in a colour space it handles; nil for CMYK/YCCK and other formats.
    private let jpeg: LibJPEGDecoder?
    /// The luma path for HEIC photos whose container it reads; nil sends them through libvips.
    private let heif: HEIFLumaDecoder?
    private var consumed = false
    /// This photo's claim on libvips' error text, held from the header read until `deinit`.
    private let errorTicket: VipsErrorAttribution.Ticket

    init(
        image: UnsafeMutablePointer<VipsImage>, data: UnsafeMutableRawBufferPointer, format: ImageFormat,
        jpeg: LibJPEGDecoder?, heif: HEIFContainer?, errorTicket: VipsErrorAttribution.Ticket
    ) {
        self.image = image
        self.errorTicket = errorTicket
        self.data = data
        self.format = format
        self.jpeg = jpeg
        self.header = ImageHeader(
            format: format,
            storedWidth: Int(vips_image_get_width(image)),
            storedHeight: Int(vips_image_get_height(image)),
            orientation: Int(pv_image_get_orientation(image))
        )
        // The luma path must see the picture libheif describes; if the two readers disagree on its
        // size, libvips decodes it as before.
        if let heif, heif.displayedWidth == header.storedWidth, heif.displayedHeight == header.storedHeight {
            self.heif = HEIFLumaDecoder(container: heif)
        } else {
            self.heif = nil
        }
    }

    deinit {
        pv_object_unref(image)
        data.deallocate()
        VipsErrorAttribution.end(errorTicket)
    }

    /// The plan for measuring at `targetShortSide` (nil: native scale, full RGB for parity with
    /// OpenCV). JPEG is decoded at the smallest DCT scale M/8 that keeps the shortest side at or
    /// above the target, as luma only when the plane is resampled anyway; HEIC as luma through
    /// FFmpeg in that case too, when its container is one the Swift reader handles.
    /// `lumaPaths: false` decodes RGB (libjpeg for JPEG, libvips for the rest) even when luma would
    /// do: what the fidelity tests and `bench --compare-paths` measure the luma paths against.
    public func plan(targetShortSide: Int?, lumaPaths: Bool = true) -> DecodePlan {
        let pixels = header.pixelCount
        let bands = Int(vips_image_get_bands(image))
        let sampleBytes = vips_image_get_format(image) == VIPS_FORMAT_USHORT ? 2 : 1
        let interlaced = pv_image_get_int(image, "interlaced", 0) != 0
        let streamingRows = header.storedWidth * max(bands, 3) * sampleBytes * 256
        switch format {
        case .jpeg:
            if let jpeg {
                let numerator = Self.smallestScaleNumerator(shortestSide: header.shortestSide, target: targetShortSide, powersOfTwo: false)
                let luma = targetShortSide != nil && lumaPaths
                return DecodePlan(decoder: .libjpeg, scaleNumerator: numerator, luma: luma, estimatedBytes: jpeg.estimatedMemory(luma: luma, scaleNumerator: numerator))
            }
            // CMYK and YCCK go through libvips, whose shrink-on-load takes powers of two only.
            let numerator = Self.smallestScaleNumerator(shortestSide: header.shortestSide, target: targetShortSide, powersOfTwo: true)
            return DecodePlan(decoder: .libvips, scaleNumerator: numerator, luma: false, estimatedBytes: interlaced ? pixels * 5 + streamingRows : streamingRows * 2)
        case .png:
            return DecodePlan(decoder: .libvips, scaleNumerator: 8, luma: false, estimatedBytes: interlaced ? pixels * bands * sampleBytes + streamingRows : streamingRows)
        case .webp:
            return DecodePlan(decoder: .libvips, scaleNumerator: 8, luma: false, estimatedBytes: pixels * 4 + streamingRows)
        case .heif:
            if let heif, targetShortSide != nil, lumaPaths {
                return DecodePlan(decoder: .ffmpegHEVC, scaleNumerator: 8, luma: true, estimatedBytes: heif.estimatedBytes)
            }
            return DecodePlan(decoder: .libvips, scaleNumerator: 8, luma: false, estimatedBytes: pixels * 6 + streamingRows)
        }
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
    ///   - body: receives each strip, its first row index, row count and the bytes between rows.
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
            try jpeg.decode(luma: plan.luma, scaleNumerator: plan.scaleNumerator, rowsPerStrip: rowsPerStrip, begin: begin, body: body)
            return
        }
        if plan.luma, let heif {
            try heif.decode(UnsafeRawBufferPointer(data), rowsPerStrip: rowsPerStrip, begin: begin, body: body)
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
            top += count
        }
    }

    /// Reads a string field of the header, or nil when it is absent.
    func stringField(_ name: String) -> String? {
        pv_image_get_string(image, name).map { String(cString: $0) }
    }

    private func loadedImage(shrink: Int) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
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
        DecodeFailure(.corruptPixels, "the \(format.rawValue) pixel data is truncated or corrupt: \(VipsErrorAttribution.message(for: errorTicket))")
    }
}
