/// How one photo's pixels will be decoded: at which scale, to which samples, and the memory the
/// decoder itself needs for it (what admission control reserves before the decode starts).
public struct DecodePlan: Sendable, Equatable {
    /// The library that decodes the pixels.
    public enum Decoder: String, Sendable, Codable {
        /// libjpeg-turbo directly (JPEG in grey, YCbCr or RGB).
        case libjpeg
        /// FFmpeg's HEVC decoder on the tiles, after the Swift HEIF reader (every HEIC).
        case ffmpegHEVC = "ffmpeg-hevc"
        /// libwebp directly, into one buffer (every still WebP).
        case libwebp
        /// libvips and the format's library behind it (PNG, animated WebP, CMYK JPEG).
        case libvips
    }

    /// Who decodes the pixels.
    public let decoder: Decoder
    /// The decode scale is `scaleNumerator`/8 (JPEG's DCT scaling; 8 for other formats).
    public let scaleNumerator: Int
    /// True when only luma is decoded (the libjpeg and FFmpeg paths at a resampled analysis scale).
    public let luma: Bool
    /// The decoder's own working memory beyond the strips handed out, in bytes.
    public let estimatedBytes: Int
    /// True when the decode keeps its colour pixels for the content check's preview.
    public var keepsPreview = false
    /// The whole factor a libvips decode's kept pixels are box-reduced by (PNG, WebP; 1 otherwise).
    public var previewReduction = 1
    /// The chroma samples across a kept JPEG decode needs for its preview, stored orientation (0:
    /// as many as the library decodes): libjpeg decodes chroma no finer than this, and the
    /// analysis's luma is the same either way.
    public var previewChromaWidth = 0
    /// The chroma samples down a kept JPEG decode needs for its preview (see `previewChromaWidth`).
    public var previewChromaHeight = 0
    /// The threads the decode may use: a HEIC's tiles are split among them (1 for other formats).
    public var threads = 1

    /// Creates a plan.
    public init(decoder: Decoder, scaleNumerator: Int, luma: Bool, estimatedBytes: Int, keepsPreview: Bool = false) {
        self.decoder = decoder
        self.scaleNumerator = scaleNumerator
        self.luma = luma
        self.estimatedBytes = estimatedBytes
        self.keepsPreview = keepsPreview
    }

    /// Bytes a pixel libvips holds while it decodes a WebP, which it cannot stream: the whole canvas
    /// about twice (libwebp's RGBA frame and the image it is copied into), 7.9 to 8.5 bytes a pixel
    /// measured at 48 MP, lossy, lossless and with alpha, the analysis included. Only an animated
    /// WebP (and `lumaPaths: false`) still goes through libvips; a still one is libwebp's.
    public static let webpBytesPerPixel = 8

    /// Bytes a pixel the most demanding decode within the pixel limit holds: a lossless WebP with
    /// alpha through libwebp, its whole ARGB picture and the RGBA buffer it is decoded into
    /// (8.0 to 8.3 bytes a pixel measured at 100 MP with the analysis, docs/decoding.md).
    public static let largestBytesPerPixel = 8

    /// Bytes a pixel a still WebP holds at the least: a lossy one without alpha, decoded by
    /// libwebp into one RGB buffer.
    public static let leastWebPBytesPerPixel = 3

    /// The decode scale as a fraction, such as 0.375 for 3/8.
    public var scale: Double { Double(scaleNumerator) / 8 }
}
