import PhotoFormat

/// Everything about one accepted image format that is read from its bytes in Swift, in one place:
/// its signature, the size its header declares, its cost caps, the time and least memory a photo
/// of it may take, its file extensions and how its preview is made. The daemon (each photo's
/// deadline and memory share, before a worker sees it) and the worker (the sniff, the caps) read
/// the same profile, so the two sides cannot disagree about a format. Adding a format is adding a
/// profile here (docs/adding-an-image-format.md); only the decoder's C calls stay in ImageCodecs.
public struct ImageFormatProfile: Sendable {
    /// How a preview of the format is made.
    public enum PreviewPath: Sendable, Equatable {
        /// libvips' loader shrinks while decoding (JPEG's scaled IDCT, WebP's scaled decode).
        case shrinkOnLoad
        /// libvips' loader decodes the whole picture, which is then resized (PNG).
        case wholeImage
        /// From the check's own decode (HEIC's FFmpeg planes): libvips never sees the file.
        case fromDecode
    }

    /// The format.
    public let format: ImageFormat
    /// The name messages use ("JPEG", "HEIC").
    public let name: String
    /// File extensions the batch commands take for this format, lower case, without the dot.
    public let fileExtensions: [String]
    /// Time per declared megapixel a photo may keep a worker (`PhotoTimeLimit`): about four times
    /// the slowest real photo of the format measured on one core (docs/reliability.md, "Deadlines").
    public let timePerMegapixel: Duration
    /// How its preview is made.
    public let preview: PreviewPath
    /// The verdict on bytes that start with this format's signature, or nil when they do not.
    let signature: @Sendable (UnsafeRawBufferPointer) -> FormatSniffer.Verdict?
    /// The pixel size the header declares, or nil when none can be read.
    let declaredSize: @Sendable (UnsafeRawBufferPointer) -> (width: Int, height: Int)?
    /// Why the structure is past a cap (`DecodeCostCaps`), or nil.
    let costRefusal: @Sendable (UnsafeRawBufferPointer, DecodeCostCaps) -> String?
    /// What the format's decoder holds at the least for a picture of this size, beside the
    /// analysis plane; never more than the worker's own estimate (`DecodePlan`).
    let leastDecoderBytes: @Sendable (_ width: Int, _ height: Int) -> Int

    /// The least memory the format's decoder holds for a `width` x `height` picture, beside the analysis plane.
    public func leastDecoderBytes(width: Int, height: Int) -> Int {
        leastDecoderBytes(width, height)
    }

    /// The accepted formats' profiles, in the order signatures are tried.
    public static let all: [ImageFormatProfile] = [.jpeg, .png, .webp, .heic]

    /// JPEG: a row strip decoded at a time by libjpeg-turbo's scaled IDCT.
    static let jpeg = ImageFormatProfile(
        format: .jpeg, name: "JPEG", fileExtensions: ["jpg", "jpeg"], timePerMegapixel: .milliseconds(100), preview: .shrinkOnLoad,
        signature: { bytes in FormatSniffer.starts(bytes, with: [0xFF, 0xD8, 0xFF]) ? .format(.jpeg) : nil },
        declaredSize: DeclaredSize.jpeg,
        costRefusal: { bytes, caps in JPEGStructure(bytes, stoppingPast: caps).refusal(caps) },
        leastDecoderBytes: { _, _ in 0 }
    )

    /// PNG: streamed in strips of 256 rows unless interlaced.
    static let png = ImageFormatProfile(
        format: .png, name: "PNG", fileExtensions: ["png"], timePerMegapixel: .milliseconds(300), preview: .wholeImage,
        signature: { bytes in FormatSniffer.starts(bytes, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? .format(.png) : nil },
        declaredSize: DeclaredSize.png,
        costRefusal: { bytes, caps in PNGStructure(bytes, stoppingPast: caps).refusal(caps) },
        leastDecoderBytes: { width, _ in width * 3 * 256 }
    )

    /// WebP: decoded whole into one canvas, as libwebp fills it.
    static let webp = ImageFormatProfile(
        format: .webp, name: "WebP", fileExtensions: ["webp"], timePerMegapixel: .milliseconds(300), preview: .shrinkOnLoad,
        signature: { bytes in
            bytes.count >= 16 && FormatSniffer.ascii(bytes, 0..<4) == "RIFF" && FormatSniffer.ascii(bytes, 8..<12) == "WEBP" ? .format(.webp) : nil
        },
        declaredSize: DeclaredSize.webp,
        costRefusal: { bytes, caps in WebPStructure(bytes, stoppingPast: caps).refusal(caps) },
        leastDecoderBytes: { width, height in width * height * DecodePlan.leastWebPBytesPerPixel }
    )

    /// HEIC: the HEIF container read in Swift (which checks its caps as it walks the NAL units),
    /// the HEVC luma plane decoded by FFmpeg; AVIF and other ISO-BMFF brands are refused by the signature.
    static let heic = ImageFormatProfile(
        format: .heif, name: "HEIC", fileExtensions: ["heic", "heif"], timePerMegapixel: .milliseconds(300), preview: .fromDecode,
        signature: { bytes in bytes.count >= 16 && FormatSniffer.ascii(bytes, 4..<8) == "ftyp" ? FormatSniffer.sniffISOBaseMedia(bytes) : nil },
        declaredSize: { bytes in (try? HEIFContainer.read(bytes)).map { ($0.width, $0.height) } },
        costRefusal: { _, _ in nil },
        leastDecoderBytes: { width, height in width * height }
    )
}
