/// The image formats photo-validator accepts; every other libvips loader is blocked, HEIF's too
/// (HEIC is read in Swift and decoded by FFmpeg).
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG (baseline and progressive).
    case jpeg
    /// PNG, 8 or 16 bits per sample.
    case png
    /// WebP, lossy or lossless.
    case webp
    /// HEIF with HEVC coding (HEIC); AVIF is refused.
    case heif
}
