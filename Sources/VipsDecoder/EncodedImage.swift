import CVips

/// A photo whose header has been read; its pixels are decoded on demand, strip by strip.
///
/// Owns a copy of the encoded bytes (libvips borrows them for as long as the image lives) and the
/// libvips image. Use it on one thread.
public final class EncodedImage {
    /// The container format.
    public let format: ImageFormat
    /// What the header declares.
    public let header: ImageHeader
    private let image: UnsafeMutablePointer<VipsImage>
    private let data: UnsafeMutableRawBufferPointer
    private var consumed = false

    init(image: UnsafeMutablePointer<VipsImage>, data: UnsafeMutableRawBufferPointer, format: ImageFormat) {
        self.image = image
        self.data = data
        self.format = format
        self.header = ImageHeader(
            format: format,
            storedWidth: Int(vips_image_get_width(image)),
            storedHeight: Int(vips_image_get_height(image)),
            orientation: Int(pv_image_get_orientation(image))
        )
    }

    deinit {
        pv_object_unref(image)
        data.deallocate()
    }

    /// The JPEG shrink-on-load factor (1, 2, 4 or 8) that keeps the shortest side at or above
    /// `targetShortSide`; 1 for other formats or when no target is given.
    public func shrinkOnLoad(targetShortSide: Int?) -> Int {
        guard format == .jpeg, let target = targetShortSide, target > 0 else { return 1 }
        var shrink = 1
        // libvips crops the scaled decode to floor(n / shrink).
        while shrink < 8, header.shortestSide / (2 * shrink) >= target {
            shrink *= 2
        }
        return shrink
    }

    /// A conservative estimate of the memory the decoder itself holds while decoding at `shrink`,
    /// beyond the strips handed out: what admission control reserves before a decode starts.
    ///
    /// Progressive JPEG keeps every DCT coefficient (about 3 bytes per pixel at 4:2:0), interlaced
    /// PNG, WebP and HEIF decode whole frames; baseline JPEG and plain PNG stream a few rows.
    public func estimatedDecodeBytes(shrink: Int) -> Int {
        let pixels = header.pixelCount
        let interlaced = pv_image_get_int(image, "interlaced", 0) != 0
        let bands = Int(vips_image_get_bands(image))
        let sampleBytes = vips_image_get_format(image) == VIPS_FORMAT_USHORT ? 2 : 1
        let streamingRows = header.storedWidth / max(shrink, 1) * max(bands, 3) * 256
        switch format {
        case .jpeg: return interlaced ? pixels * 3 + streamingRows : streamingRows
        case .png: return interlaced ? pixels * bands * sampleBytes + streamingRows : streamingRows
        case .webp: return pixels * 4
        case .heif: return pixels * 6
        }
    }

    /// Decodes the pixels as 8-bit samples and hands them to `body` in strips of whole rows, top
    /// to bottom, so memory stays bounded by the strip size rather than the image size.
    ///
    /// - Parameters:
    ///   - shrink: a JPEG shrink-on-load factor from `shrinkOnLoad(targetShortSide:)`.
    ///   - rowsPerStrip: how many rows each call of `body` receives at most.
    ///   - begin: called once with the decoded geometry before the first strip.
    ///   - body: receives each strip, its first row index, row count and the bytes between rows.
    /// - Throws: `DecodeFailure.corruptPixels` when the data is truncated or corrupt, or what `body` throws.
    /// Call it once per image: libvips reads the data sequentially.
    public func decodeStrips(
        shrink: Int = 1,
        rowsPerStrip: Int = 64,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws {
        precondition(!consumed, "an EncodedImage decodes once: libvips reads it sequentially")
        consumed = true
        let loaded = try loadedImage(shrink: shrink)
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
        guard format == .jpeg, shrink > 1 else {
            g_object_ref(image)
            return image
        }
        var shrunk: UnsafeMutablePointer<VipsImage>?
        guard pv_jpegload_buffer(data.baseAddress, data.count, Int32(shrink), &shrunk) == 0, let shrunk else {
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
        DecodeFailure(.corruptPixels, "the \(format.rawValue) pixel data is truncated or corrupt: \(VipsRuntime.takeErrorMessage())")
    }
}
