import PhotoFormat

/// What decoding a photo will cost, estimated from its header alone (no C library, no pixels):
/// milliseconds of one core at the format's cap rate (`ImageFormatProfile.timePerMegapixel`, the
/// scale of `PhotoTimeLimit`), for its declared pixels, times the passes a progressive JPEG's scans
/// make over them, plus its bytes (entropy decoding reads every one).
///
/// Only its order matters: the daemon's spare thread takes the cheapest waiting photo, so a small
/// photo does not wait behind a crowd's costly ones (issue 63, finding 4). A file whose size cannot
/// be read costs its bytes alone: the decoder refuses it quickly.
public struct DecodeCost: Sendable, Equatable, Comparable {
    /// The estimate, in milliseconds at the format's cap rate (about four times a real decode).
    public let milliseconds: Int

    /// Milliseconds per megabyte of the file.
    static let perMegabyte = 100.0
    /// Scans a baseline or ordinary progressive JPEG makes at most before its passes count extra
    /// (libjpeg's default progressive script writes 10).
    static let ordinaryScans = 10

    /// The estimate for the photo in `bytes`.
    public init(of bytes: UnsafeRawBufferPointer) {
        var cost = Double(bytes.count) / 1_000_000 * Self.perMegabyte
        if let size = DeclaredSize(bytes) {
            var passes = 1.0
            if size.format == .jpeg {
                // Each scan beyond a normal file's is another pass over every block it covers.
                let scans = JPEGStructure(bytes, stoppingPast: DecodeCostCaps()).scans
                passes += Double(max(0, scans - Self.ordinaryScans)) / Double(Self.ordinaryScans)
            }
            cost += Double(size.pixels) / 1_000_000 * (size.format.profile.timePerMegapixel / .milliseconds(1)) * passes
        }
        milliseconds = Int(cost.rounded(.up))
    }

    /// An estimate of `milliseconds`.
    public init(milliseconds: Int) {
        self.milliseconds = milliseconds
    }

    /// True when `lhs` is the cheaper.
    public static func < (lhs: DecodeCost, rhs: DecodeCost) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}
