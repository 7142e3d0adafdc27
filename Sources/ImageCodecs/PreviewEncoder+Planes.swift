import CLibJPEG
import PhotoFormat

extension PreviewEncoder {
    /// The preview of kept JPEG YCbCr (or grey) samples made without libvips or any colour
    /// conversion: Y area-reduced to the preview's size and Cb and Cr straight to half of it,
    /// placed as displayed, and written by libjpeg-turbo as 4:2:0 raw data. Nil for pixels it
    /// does not take (libvips' RGB, chroma in another matrix or range), which `preview(from:)`
    /// makes through libvips.
    func planarPreview(from pixels: PreviewPixels) throws(DecodeFailure) -> PreviewImage? {
        // Each source plane: its first sample, bytes a row, bytes between samples, and its size.
        typealias Plane = (base: UnsafePointer<UInt8>, stride: Int, step: Int, width: Int, height: Int)
        let luma: Plane
        var chroma: (cb: Plane, cr: Plane, shiftX: Int, shiftY: Int)?
        switch pixels.layout {
        case .interleaved(1):
            luma = (UnsafePointer(pixels.samples), pixels.width, 1, pixels.width, pixels.height)
        case .interleaved(3):
            let stride = pixels.width * 3
            luma = (UnsafePointer(pixels.samples), stride, 3, pixels.width, pixels.height)
            chroma = ((UnsafePointer(pixels.samples + 1), stride, 3, pixels.width, pixels.height),
                      (UnsafePointer(pixels.samples + 2), stride, 3, pixels.width, pixels.height), 0, 0)
        case .planar(let shiftX, let shiftY):
            // The planes go into the file as they are: only JPEG's own full-range BT.601 will do.
            guard pixels.matrix == (0.299, 0.114), pixels.chromaGain == 1 else { return nil }
            luma = (UnsafePointer(pixels.samples), pixels.width, 1, pixels.width, pixels.height)
            if let cb = pixels.cb, let cr = pixels.cr {
                let (width, height) = PreviewPixels.chromaSize(width: pixels.width, height: pixels.height, shiftX: shiftX, shiftY: shiftY)
                chroma = ((UnsafePointer(cb), width, 1, width, height), (UnsafePointer(cr), width, 1, width, height), shiftX, shiftY)
            }
        default:
            return nil
        }

        let (stored, displayed) = previewSize(of: pixels)
        let crop = pixels.crop, orientation = pixels.orientation
        // Whole MCUs of the file: 16 x 16 pixels with 4:2:0 chroma, 8 x 8 for grey.
        let block = chroma == nil ? 8 : 16
        let padded = (width: (displayed.width + block - 1) / block * block, height: (displayed.height + block - 1) / block * block)
        let lumaOut = UnsafeMutablePointer<UInt8>.allocate(capacity: padded.width * padded.height)
        defer { lumaOut.deallocate() }
        let chromaPadded = (width: padded.width / 2, height: padded.height / 2)
        let cbOut = chroma == nil ? nil : UnsafeMutablePointer<UInt8>.allocate(capacity: chromaPadded.width * chromaPadded.height)
        let crOut = chroma == nil ? nil : UnsafeMutablePointer<UInt8>.allocate(capacity: chromaPadded.width * chromaPadded.height)
        defer {
            cbOut?.deallocate()
            crOut?.deallocate()
        }

        let scale = (x: Double(crop.width) / Double(stored.width), y: Double(crop.height) / Double(stored.height))
        let lumaAxes = (
            x: PreviewResampler.Axis(outputs: stored.width, origin: Double(crop.left), scale: scale.x,
                                     start: Double(crop.left), end: Double(crop.left + crop.width), length: luma.width, unit: PreviewResampler.horizontalUnit),
            y: PreviewResampler.Axis(outputs: stored.height, origin: Double(crop.top), scale: scale.y,
                                     start: Double(crop.top), end: Double(crop.top + crop.height), length: luma.height, unit: PreviewResampler.verticalUnit)
        )
        Self.reduce(luma, axes: lumaAxes, orientation: orientation, into: lumaOut, stride: padded.width)
        Self.padEdges(lumaOut, width: displayed.width, height: displayed.height, stride: padded.width, paddedHeight: padded.height)

        if let chroma, let cbOut, let crOut {
            // Each chroma sample covers two luma samples each way. Where an odd side ends up
            // reversed on screen, the grid starts half a sample before the picture, so that it
            // lines up with the displayed picture's first column or row, as a decoder expects.
            let reversed = Self.reversedAxes(orientation)
            let size = (width: (stored.width + 1) / 2, height: (stored.height + 1) / 2)
            let fx = Double(1 << chroma.shiftX), fy = Double(1 << chroma.shiftY)
            let originX = Double(crop.left) - (reversed.x && stored.width % 2 == 1 ? scale.x : 0)
            let originY = Double(crop.top) - (reversed.y && stored.height % 2 == 1 ? scale.y : 0)
            let axes = (
                x: PreviewResampler.Axis(outputs: size.width, origin: originX / fx, scale: 2 * scale.x / fx,
                                         start: Double(crop.left) / fx, end: Double(crop.left + crop.width) / fx, length: chroma.cb.width, unit: PreviewResampler.horizontalUnit),
                y: PreviewResampler.Axis(outputs: size.height, origin: originY / fy, scale: 2 * scale.y / fy,
                                         start: Double(crop.top) / fy, end: Double(crop.top + crop.height) / fy, length: chroma.cb.height, unit: PreviewResampler.verticalUnit)
            )
            let shown = orientation.degrees % 180 == 0 ? size : (size.height, size.width)
            for (plane, target) in [(chroma.cb, cbOut), (chroma.cr, crOut)] {
                Self.reduce(plane, axes: axes, orientation: orientation, into: target, stride: chromaPadded.width)
                Self.padEdges(target, width: shown.0, height: shown.1, stride: chromaPadded.width, paddedHeight: chromaPadded.height)
            }
        }

        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pv_jpeg_encode_planes(lumaOut, padded.width, cbOut, crOut, chromaPadded.width,
                                           Int32(displayed.width), Int32(displayed.height), Int32(quality), &output, &length, &message, message.count)
        guard status == 0, let output else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw DecodeFailure(.libraryFailure, "libjpeg failed encoding the preview: \(text)")
        }
        defer { pv_jpeg_free(output) }
        return PreviewImage(jpeg: Array(UnsafeBufferPointer(start: output, count: length)), width: displayed.width, height: displayed.height)
    }

    /// Reduces `plane` along `axes` (stored orientation) into `target` as displayed.
    private static func reduce(_ plane: (base: UnsafePointer<UInt8>, stride: Int, step: Int, width: Int, height: Int),
                               axes: (x: PreviewResampler.Axis, y: PreviewResampler.Axis), orientation: (degrees: Int, mirrored: Bool),
                               into target: UnsafeMutablePointer<UInt8>, stride: Int) {
        let placement = placement(width: axes.x.count, height: axes.y.count, stride: stride, orientation: orientation)
        PreviewResampler.reduce(plane.base, stride: plane.stride, step: plane.step, horizontal: axes.x, vertical: axes.y, into: target, placement: placement)
    }

    /// Where stored sample (x, y) of a `width` x `height` plane goes in a plane `stride` bytes a
    /// row once turned clockwise by `orientation.degrees` and then mirrored left to right when
    /// `orientation.mirrored`: `origin + x * across + y * down`.
    static func placement(width: Int, height: Int, stride: Int, orientation: (degrees: Int, mirrored: Bool)) -> (origin: Int, across: Int, down: Int) {
        // The displayed column and row of the first sample, and their steps, as (column, row).
        var origin: (Int, Int), across: (Int, Int), down: (Int, Int)
        switch orientation.degrees {
        case 90: (origin, across, down) = ((height - 1, 0), (0, 1), (-1, 0))
        case 180: (origin, across, down) = ((width - 1, height - 1), (-1, 0), (0, -1))
        case 270: (origin, across, down) = ((0, width - 1), (0, -1), (1, 0))
        default: (origin, across, down) = ((0, 0), (1, 0), (0, 1))
        }
        if orientation.mirrored {
            let shownWidth = orientation.degrees % 180 == 0 ? width : height
            origin.0 = shownWidth - 1 - origin.0
            across.0 = -across.0
            down.0 = -down.0
        }
        return (origin.1 * stride + origin.0, across.1 * stride + across.0, down.1 * stride + down.0)
    }

    /// Whether the stored x and y axes run right to left or bottom to top once displayed.
    static func reversedAxes(_ orientation: (degrees: Int, mirrored: Bool)) -> (x: Bool, y: Bool) {
        switch orientation.degrees {
        case 90: (false, !orientation.mirrored)
        case 180: (!orientation.mirrored, true)
        case 270: (true, orientation.mirrored)
        default: (orientation.mirrored, false)
        }
    }

    /// Repeats the last column of each of `height` rows out to `stride`, and the last row down to
    /// `paddedHeight`: the whole blocks the encoder reads.
    static func padEdges(_ plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, paddedHeight: Int) {
        if width < stride {
            for y in 0..<height {
                let row = plane + y * stride
                (row + width).update(repeating: row[width - 1], count: stride - width)
            }
        }
        for y in height..<max(height, paddedHeight) {
            (plane + y * stride).update(from: plane + (height - 1) * stride, count: stride)
        }
    }
}
