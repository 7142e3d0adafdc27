import CVips
import PhotoFormat

/// Makes the JPEG a content classifier sees: decoded with the format's own libvips loader (with
/// shrink-on-load where the format has it), resized so the long edge and the pixel count stay
/// within bounds, EXIF orientation applied, and saved with every metadata block stripped, so no
/// GPS position or camera serial leaves the machine and the original bytes are never sent.
///
/// Synchronous and CPU-bound: call it on a worker thread, after the header has been checked.
public struct PreviewEncoder: Sendable {
    /// Anthropic's vision models downscale anything with a longer edge than this.
    public static let defaultMaximumLongEdge = PreviewBounds.defaultMaximumLongEdge
    /// About 1.15 megapixels, the largest image the models look at without downscaling.
    public static let defaultMaximumPixels = PreviewBounds.defaultMaximumPixels

    /// The longest edge of the preview, in pixels.
    public let maximumLongEdge: Int
    /// The largest pixel count of the preview.
    public let maximumPixels: Int
    /// JPEG quality, 1 to 100.
    public let quality: Int

    /// Creates an encoder; starts libvips if it is not running yet.
    public init(maximumLongEdge: Int = PreviewEncoder.defaultMaximumLongEdge,
                maximumPixels: Int = PreviewEncoder.defaultMaximumPixels,
                quality: Int = PreviewBounds.defaultQuality) throws(DecodeFailure) {
        precondition(maximumLongEdge >= 16 && maximumPixels >= 256 && (1...100).contains(quality), "a preview needs a sensible size and quality")
        try VipsRuntime.start()
        self.maximumLongEdge = maximumLongEdge
        self.maximumPixels = maximumPixels
        self.quality = quality
    }

    /// Creates an encoder for `bounds` (what a validation asks for); starts libvips if it is not running yet.
    public init(bounds: PreviewBounds) throws(DecodeFailure) {
        try self.init(maximumLongEdge: bounds.maximumLongEdge, maximumPixels: bounds.maximumPixels, quality: bounds.quality)
    }

    /// The encoder's size and quality as a value without libvips.
    public var bounds: PreviewBounds {
        PreviewBounds(maximumLongEdge: maximumLongEdge, maximumPixels: maximumPixels, quality: quality)
    }

    /// The preview of the photo in `bytes`, whose format is already known from its header.
    ///
    /// - Throws: `DecodeFailure.corruptPixels` when libvips cannot decode or encode it.
    public func preview(of bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(DecodeFailure) -> PreviewImage {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw DecodeFailure(.emptyInput, "the upload is empty (0 bytes)")
        }
        // libvips' loaders take a non-const pointer but only read the buffer.
        let data = UnsafeMutableRawPointer(mutating: base)
        let ticket = VipsErrorAttribution.begin()
        defer { VipsErrorAttribution.end(ticket) }
        func failure(_ stage: String) -> DecodeFailure {
            DecodeFailure(.corruptPixels, "libvips failed \(stage) the photo for its preview: \(VipsErrorAttribution.message(for: ticket))")
        }
        var image = try load(data, bytes.count, format: format, failure: failure)
        defer { pv_object_unref(image) }

        func step(_ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws(DecodeFailure) {
            var next: UnsafeMutablePointer<VipsImage>?
            guard operation(image, &next) == 0, let next else { throw failure("processing") }
            pv_object_unref(image)
            image = next
        }

        let scale = fittingScale(width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)))
        if scale < 1 {
            try step { pv_preview_resize($0, $1, scale) }
        }
        // The small image is decoded into memory once: rotation reads it out of order.
        guard let decoded = pv_preview_copy_memory(image) else { throw failure("decoding") }
        pv_object_unref(image)
        image = decoded
        try step { pv_preview_autorot($0, $1) }
        if pv_preview_has_alpha(image) != 0 {
            try step { pv_preview_flatten_white($0, $1) }
        }
        try step { pv_preview_srgb($0, $1) }
        try step { pv_preview_cast_uchar($0, $1) }

        return try jpeg(of: image, failure: failure)
    }

    /// `image` saved as the preview JPEG (baseline, no metadata), with its size.
    func jpeg(of image: UnsafeMutablePointer<VipsImage>, failure: (String) -> DecodeFailure) throws(DecodeFailure) -> PreviewImage {
        var output: UnsafeMutableRawPointer?
        var length = 0
        guard pv_preview_jpegsave(image, &output, &length, Int32(quality)) == 0, let output else {
            throw failure("encoding")
        }
        defer { g_free(output) }
        let jpeg = Array(UnsafeRawBufferPointer(start: output, count: length))
        return PreviewImage(jpeg: jpeg, width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)))
    }

    /// The factor (at most 1) that brings a `width` x `height` image within both bounds, allowing
    /// for libvips rounding each side to the nearest pixel.
    func fittingScale(width: Int, height: Int) -> Double {
        let long = Double(max(width, height))
        let scale = min(1, Double(maximumLongEdge) / long, (Double(maximumPixels) / Double(width * height)).squareRoot())
        guard scale < 1 else { return 1 }
        // The largest whole width whose rounded height keeps both bounds, so every path that
        // fits the same picture lands on the same size.
        var target = Int((Double(width) * scale).rounded(.down))
        while target > 1 {
            let fitted = Double(target) / Double(width)
            let h = (Double(height) * fitted).rounded()
            if max(Double(target), h) <= Double(maximumLongEdge), Double(target) * h <= Double(maximumPixels) { return fitted }
            target -= 1
        }
        return 1 / Double(width)
    }

    /// Opens the photo with its format's loader, shrinking while decoding where the format allows.
    private func load(_ data: UnsafeMutableRawPointer, _ count: Int, format: ImageFormat, failure: (String) -> DecodeFailure) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
        var image: UnsafeMutablePointer<VipsImage>?
        let status: Int32
        switch format {
        case .jpeg:
            // The header alone gives the size; the scaled IDCT then decodes at most what is needed.
            var header: UnsafeMutablePointer<VipsImage>?
            guard pv_preview_jpegload(data, count, 1, &header) == 0, let header else { throw failure("reading the header of") }
            let scale = fittingScale(width: Int(vips_image_get_width(header)), height: Int(vips_image_get_height(header)))
            pv_object_unref(header)
            var shrink: Int32 = 1
            while shrink < 8, Double(shrink * 2) <= 1 / scale { shrink *= 2 }
            status = pv_preview_jpegload(data, count, shrink, &image)
        case .png:
            status = pv_preview_pngload(data, count, &image)
        case .webp:
            var header: UnsafeMutablePointer<VipsImage>?
            guard pv_preview_webpload(data, count, 1, &header) == 0, let header else { throw failure("reading the header of") }
            let scale = fittingScale(width: Int(vips_image_get_width(header)), height: Int(vips_image_get_height(header)))
            pv_object_unref(header)
            status = pv_preview_webpload(data, count, scale, &image)
        case .heif:
            // HEIC previews come from the FFmpeg decode's kept planes (`preview(from:)`).
            throw DecodeFailure(.unsupportedFormat, "a HEIC preview is made from its decode, never by libheif")
        }
        guard status == 0, let image else { throw failure("decoding") }
        return image
    }
}
