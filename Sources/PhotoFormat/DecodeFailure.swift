/// Why a photo could not be decoded, with a stable machine code and an operator-facing explanation.
public struct DecodeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable reasons a decode can fail.
    public enum Reason: String, Sendable, Codable {
        /// The input had no bytes at all.
        case emptyInput = "empty_input"
        /// The bytes are not JPEG, PNG, WebP or HEIC (or are a blocked format such as GIF or AVIF).
        case unsupportedFormat = "unsupported_format"
        /// The format was recognised but its header could not be read.
        case unreadableHeader = "unreadable_header"
        /// The header declares more pixels than the configured limit; nothing was decoded.
        case pixelLimitExceeded = "pixel_limit_exceeded"
        /// The file's structure would make a decoder work far past what a real photo of its size
        /// costs (a million metadata segments, thousands of scans or frames, a flood of NAL
        /// units): refused from the bytes, before any decoder ran (`DecodeCostCaps`).
        case costlyStructure = "costly_structure"
        /// The header was readable but the pixel data is truncated or corrupt.
        case corruptPixels = "corrupt_pixels"
        /// Decoding would need more memory than the configured decode budget; nothing was decoded.
        case memoryLimitExceeded = "memory_limit_exceeded"
        /// Decoding did not finish within its deadline.
        case decodeTimeout = "decode_timeout"
        /// The worker process decoding the photo died (a signal such as SIGSEGV): the file made a
        /// decoder fail in a way only a process boundary contains.
        case decoderCrashed = "decoder_crashed"
        /// The image library itself failed (libvips did not start, or could not render a chart the
        /// process made): not the photo's fault.
        case libraryFailure = "library_failure"
        /// No decode worker could take the photo: none could be started, none got ready within the
        /// photo's time, or the one given it ended before it read the photo. The service's failure,
        /// not the photo's: the daemon answers 503 `decoder_unavailable` rather than a verdict.
        case decoderUnavailable = "decoder_unavailable"
    }

    /// The stable reason code.
    public let reason: Reason
    /// A human-readable explanation, including libvips' diagnostic where there is one.
    public let message: String

    /// Creates a failure with a reason and an explanation.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The reason code followed by the explanation.
    public var description: String { "\(reason.rawValue): \(message)" }
}
