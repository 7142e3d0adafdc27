import CVips
import PhotoFormat

extension PreviewEncoder {
    /// The preview made from pixels the blur check's decode kept: cropped, resized within the
    /// bounds, converted to sRGB, turned and mirrored as displayed, and saved with no metadata.
    /// JPEG's YCbCr goes straight to libjpeg-turbo (`planarPreview`), and so does a PNG's or
    /// WebP's RGB once turned into that YCbCr (`ycbcrFromRGB`: libvips' resize and JPEG writer
    /// took a fifth of a PNG's time); chroma in another matrix or range goes through libvips.
    func preview(from pixels: PreviewPixels) throws(DecodeFailure) -> PreviewImage {
        if let preview = try planarPreview(from: pixels) {
            return preview
        }
        if let converted = pixels.ycbcrFromRGB(), let preview = try planarPreview(from: converted) {
            return preview
        }
        return try vipsPreview(from: pixels)
    }

    /// The preview of kept pixels made by libvips (a linear reduce, YCbCr to sRGB in fixed
    /// point, turn, mirror, JPEG writer); libvips sees only these decoded samples, never the
    /// photo's bytes.
    func vipsPreview(from pixels: PreviewPixels) throws(DecodeFailure) -> PreviewImage {
        let ticket = VipsErrorAttribution.begin()
        defer { VipsErrorAttribution.end(ticket) }
        func failure(_ stage: String) -> DecodeFailure {
            DecodeFailure(.corruptPixels, "libvips failed \(stage) the preview: \(VipsErrorAttribution.message(for: ticket))")
        }
        // Every image made here is released at the end; intermediate ones are chained by libvips.
        var owned: [UnsafeMutablePointer<VipsImage>] = []
        defer { owned.forEach { pv_object_unref($0) } }
        func keep(_ image: UnsafeMutablePointer<VipsImage>?, _ stage: String) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
            guard let image else { throw failure(stage) }
            owned.append(image)
            return image
        }
        func step(_ stage: String, _ operation: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
            var next: UnsafeMutablePointer<VipsImage>?
            guard operation(&next) == 0 else { throw failure(stage) }
            return try keep(next, stage)
        }

        let crop = pixels.crop
        let target = previewSize(of: pixels).stored

        /// Crops `plane` to `area`, repeats its samples `zoom` times when that is smaller than the
        /// target (subsampled chroma of a small picture), and reduces it to the target.
        func fitted(_ plane: UnsafeMutablePointer<VipsImage>, area: (left: Int, top: Int, width: Int, height: Int), zoom: (Int, Int) = (1, 1)) throws(DecodeFailure) -> UnsafeMutablePointer<VipsImage> {
            var image = plane
            var area = area
            if area.left != 0 || area.top != 0 || area.width != Int(vips_image_get_width(plane)) || area.height != Int(vips_image_get_height(plane)) {
                image = try step("cropping") { pv_preview_extract_area(image, $0, Int32(area.left), Int32(area.top), Int32(area.width), Int32(area.height)) }
            }
            if (area.width < target.width || area.height < target.height) && zoom != (1, 1) {
                let source = image
                image = try step("enlarging") { pv_preview_zoom(source, $0, Int32(zoom.0), Int32(zoom.1)) }
                area = (0, 0, area.width * zoom.0, area.height * zoom.1)
                if area.width < target.width || area.height < target.height {
                    throw DecodeFailure(.corruptPixels, "the chroma planes are smaller than the picture")
                }
            }
            if area.width != target.width || area.height != target.height {
                let h = Double(target.width) / Double(area.width), v = Double(target.height) / Double(area.height)
                image = try step("resizing") { pv_preview_resize_xy(image, $0, h, v) }
            }
            return image
        }

        var image: UnsafeMutablePointer<VipsImage>
        var ycbcr = false, alpha = false
        switch pixels.layout {
        case .rgb(let bands):
            let whole = try keep(pv_preview_from_memory(pixels.samples, Int32(pixels.width), Int32(pixels.height), Int32(bands)), "wrapping")
            image = try fitted(whole, area: crop)
            alpha = bands == 2 || bands == 4
        case .interleaved(let bands):
            let whole = try keep(pv_preview_from_memory(pixels.samples, Int32(pixels.width), Int32(pixels.height), Int32(bands)), "wrapping")
            image = try fitted(whole, area: crop)
            ycbcr = bands == 3
        case .planar(let shiftX, let shiftY):
            let luma = try keep(pv_preview_from_memory(pixels.samples, Int32(pixels.width), Int32(pixels.height), 1), "wrapping")
            var planes = [try fitted(luma, area: crop)]
            if let cb = pixels.cb, let cr = pixels.cr {
                let (chromaWidth, chromaHeight) = PreviewPixels.chromaSize(width: pixels.width, height: pixels.height, shiftX: shiftX, shiftY: shiftY)
                let left = crop.left >> shiftX, top = crop.top >> shiftY
                let area = (left, top, ((crop.left + crop.width - 1) >> shiftX) - left + 1, ((crop.top + crop.height - 1) >> shiftY) - top + 1)
                for plane in [cb, cr] {
                    let whole = try keep(pv_preview_from_memory(plane, Int32(chromaWidth), Int32(chromaHeight), 1), "wrapping")
                    planes.append(try fitted(whole, area: area, zoom: (1 << shiftX, 1 << shiftY)))
                }
                // Resizes round each side on their own: keep the size all three share.
                let width = planes.map { Int(vips_image_get_width($0)) }.min()!, height = planes.map { Int(vips_image_get_height($0)) }.min()!
                for index in planes.indices where Int(vips_image_get_width(planes[index])) != width || Int(vips_image_get_height(planes[index])) != height {
                    let plane = planes[index]
                    planes[index] = try step("cropping") { pv_preview_extract_area(plane, $0, 0, 0, Int32(width), Int32(height)) }
                }
                var array: [UnsafeMutablePointer<VipsImage>?] = planes
                image = try array.withUnsafeMutableBufferPointer { buffer throws(DecodeFailure) in
                    try step("joining") { pv_preview_join(buffer.baseAddress, 3, $0) }
                }
                ycbcr = true
            } else {
                image = planes[0]
            }
        }
        // The small image is decoded into memory once: turning reads it out of order, and YCbCr
        // is converted there in place.
        image = try keep(pv_preview_copy_memory(image), "decoding")
        if alpha {
            // As libvips' own preview of the photo: transparency shown over white.
            let transparent = image
            image = try step("flattening") { pv_preview_flatten_white(transparent, $0) }
        }
        if ycbcr {
            guard let samples = pv_preview_samples(image) else { throw failure("converting") }
            Self.convertToRGB(samples, count: Int(vips_image_get_width(image)) * Int(vips_image_get_height(image)), matrix: pixels.matrix, chromaGain: pixels.chromaGain)
        }
        if pixels.orientation.degrees != 0 {
            let turned = image
            image = try step("turning") { pv_preview_rotate(turned, $0, Int32(pixels.orientation.degrees)) }
        }
        if pixels.orientation.mirrored {
            let turned = image
            image = try step("mirroring") { pv_preview_flip_horizontal(turned, $0) }
        }
        let marked = image
        image = try step("describing") { pv_preview_mark_srgb(marked, $0) }
        if vips_image_get_bands(image) == 1 {
            let grey = image
            image = try step("converting") { pv_preview_srgb(grey, $0) }
        }
        return try jpeg(of: image, failure: failure)
    }

    /// The preview's size for `pixels`, in stored and in displayed orientation: fitted to the
    /// photo's full displayed size, never larger than the pixels at hand.
    func previewSize(of pixels: PreviewPixels) -> (stored: (width: Int, height: Int), displayed: (width: Int, height: Int)) {
        let full = pixels.fittingSize
        let scale = fittingScale(width: full.width, height: full.height)
        let displayed = (
            width: max(1, min(pixels.displayedWidth, Int((Double(full.width) * scale).rounded()))),
            height: max(1, min(pixels.displayedHeight, Int((Double(full.height) * scale).rounded())))
        )
        let transposed = pixels.orientation.degrees % 180 != 0
        return (transposed ? (displayed.height, displayed.width) : displayed, displayed)
    }

    /// Converts `count` interleaved YCbCr pixels (full-range luma) to sRGB in place, in 16-bit
    /// fixed point as libjpeg does: the float pipeline libvips offers costs three times as long.
    static func convertToRGB(_ samples: UnsafeMutablePointer<UInt8>, count: Int, matrix: (kr: Double, kb: Double), chromaGain: Double) {
        let kg = 1 - matrix.kr - matrix.kb
        func fixed(_ value: Double) -> Int { Int((value * chromaGain * 65536).rounded()) }
        let redFromCr = fixed(2 * (1 - matrix.kr)), blueFromCb = fixed(2 * (1 - matrix.kb))
        let greenFromCb = fixed(2 * matrix.kb * (1 - matrix.kb) / kg), greenFromCr = fixed(2 * matrix.kr * (1 - matrix.kr) / kg)
        @inline(__always) func clamp(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: max(0, min(255, value))) }
        for index in 0..<count {
            let pixel = samples + index * 3
            let y = Int(pixel[0]) << 16 + 32768, cb = Int(pixel[1]) - 128, cr = Int(pixel[2]) - 128
            pixel[0] = clamp((y + redFromCr * cr) >> 16)
            pixel[1] = clamp((y - greenFromCb * cb - greenFromCr * cr) >> 16)
            pixel[2] = clamp((y + blueFromCb * cb) >> 16)
        }
    }
}
