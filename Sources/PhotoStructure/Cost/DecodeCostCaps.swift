/// Caps on what a photo's structure may make a decoder do, checked from the bytes in Swift before
/// any C library sees them: a file within them costs what a real photo of its size costs.
///
/// Every default leaves room to spare over the largest real photo measured (camera JPEGs with
/// large maker notes, phone HEICs, 100-frame animations; docs/decoding.md, "Cost caps"); a file
/// past one is `invalid_image` with `decode_failure` `costly_structure` and a detail naming the cap.
public struct DecodeCostCaps: Sendable, Codable, Equatable {
    /// JPEG marker segments before the end of the first image (a camera writes 10 to 40).
    public var jpegSegments = 2_000
    /// Progressive JPEG scans, in every colour space (a camera or encoder writes at most about 20).
    public var jpegScans = 100
    /// Bytes of metadata (JPEG APPn and COM segments, PNG and WebP ancillary chunks) per photo.
    public var metadataBytes = 16 << 20
    /// PNG chunks of any kind (IDAT included: encoders split the data into 8 to 64 KiB chunks).
    public var pngChunks = 20_000
    /// Frames of an animated WebP; only the first is ever decoded.
    public var webpFrames = 1_000
    /// NAL units in one HEIC tile (a phone writes one slice and a few parameter sets or SEI).
    public var heifUnitsPerTile = 64
    /// Bytes of coded data a HEIC tile may hold per pixel it declares (a phone writes under 1).
    public var heifBytesPerPixel = 4

    /// The defaults.
    public init() {}
}
