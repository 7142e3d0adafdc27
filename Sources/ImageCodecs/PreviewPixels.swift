/// Pixels decoded once for the blur check and kept, so that the content check's preview is made
/// from them instead of decoding the photo a second time. Owns its buffers.
final class PreviewPixels {
    /// How the samples are laid out.
    enum Layout {
        /// One buffer of `bands` interleaved samples: 1 grey, or 3 YCbCr (BT.601 full range: a
        /// JPEG whose sampling the planes do not suit).
        case interleaved(bands: Int)
        /// Separate Y, Cb and Cr planes (a HEIC's, or a JPEG's as libjpeg-turbo decodes them raw),
        /// chroma subsampled by the given powers of two.
        case planar(chromaShiftX: Int, chromaShiftY: Int)
        /// Interleaved sRGB samples as libvips decodes PNG and WebP: grey, grey and alpha, RGB or RGBA (1 to 4 bands).
        case rgb(bands: Int)
    }

    /// The layout of `samples` (and of `cb`, `cr`).
    let layout: Layout
    /// Width of the stored samples (for a JPEG's planes, whole MCUs: `crop` marks the picture).
    let width: Int
    /// Height of the stored samples (for a JPEG's planes, whole MCUs).
    let height: Int
    /// The interleaved samples, or the Y plane.
    let samples: UnsafeMutablePointer<UInt8>
    /// The Cb plane of a planar picture with chroma.
    let cb: UnsafeMutablePointer<UInt8>?
    /// The Cr plane of a planar picture with chroma.
    let cr: UnsafeMutablePointer<UInt8>?
    /// The YCbCr matrix's red and blue weights.
    var matrix: (kr: Double, kb: Double) = (0.299, 0.114)
    /// 1 for full-range chroma, 255/224 for limited range (luma is already stretched to full range).
    var chromaGain = 1.0
    /// The part of the stored picture that is shown.
    var crop: (left: Int, top: Int, width: Int, height: Int)
    /// Quarter turns clockwise, in degrees, then a left-right mirror, from stored to displayed.
    var orientation: (degrees: Int, mirrored: Bool) = (0, false)
    /// The photo's displayed size before any DCT scaling: the preview's size is fitted to it, so
    /// it is the size a preview of the full-size picture would have.
    var fullSize: (width: Int, height: Int)?

    /// Takes ownership of `samples` (and `cb`, `cr`), allocated with `UnsafeMutablePointer.allocate`.
    init(layout: Layout, width: Int, height: Int, samples: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>? = nil, cr: UnsafeMutablePointer<UInt8>? = nil) {
        self.layout = layout
        self.width = width
        self.height = height
        self.samples = samples
        self.cb = cb
        self.cr = cr
        self.crop = (0, 0, width, height)
    }

    deinit {
        samples.deallocate()
        cb?.deallocate()
        cr?.deallocate()
    }

    /// The size of each chroma plane of a `width` x `height` planar picture whose chroma is
    /// subsampled by `shiftX` and `shiftY` powers of two (a partial block rounds up).
    static func chromaSize(width: Int, height: Int, shiftX: Int, shiftY: Int) -> (width: Int, height: Int) {
        ((width + (1 << shiftX) - 1) >> shiftX, (height + (1 << shiftY) - 1) >> shiftY)
    }

    /// The displayed size the preview is fitted to.
    var fittingSize: (width: Int, height: Int) { fullSize ?? (displayedWidth, displayedHeight) }

    /// The displayed width.
    var displayedWidth: Int { orientation.degrees % 180 == 0 ? crop.width : crop.height }
    /// The displayed height.
    var displayedHeight: Int { orientation.degrees % 180 == 0 ? crop.height : crop.width }

    /// The matrix weights for ITU-T H.273 matrix coefficients (BT.601 for anything unknown).
    static func weights(matrix: Int) -> (kr: Double, kb: Double) {
        switch matrix {
        case 1: (0.2126, 0.0722)
        case 9, 10: (0.2627, 0.0593)
        default: (0.299, 0.114)
        }
    }

    /// The turn and mirror that show a photo stored with EXIF `orientation` (1 to 8).
    static func orientation(exif: Int) -> (degrees: Int, mirrored: Bool) {
        switch exif {
        case 2: (0, true)
        case 3: (180, false)
        case 4: (180, true)
        case 5: (90, true)
        case 6: (90, false)
        case 7: (270, true)
        case 8: (270, false)
        default: (0, false)
        }
    }
}
