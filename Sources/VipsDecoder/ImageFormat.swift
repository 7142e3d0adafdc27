/// The image formats photo-validator accepts; every other libvips loader is blocked.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG (baseline and progressive).
    case jpeg
    /// PNG, 8 or 16 bits per sample.
    case png
    /// WebP, lossy or lossless.
    case webp
    /// HEIF with HEVC coding (HEIC); AVIF is refused.
    case heif

    /// The format for a libvips loader class such as `VipsForeignLoadJpegBuffer`, or nil for any
    /// other loader.
    init?(loaderClass: String) {
        if loaderClass.hasPrefix("VipsForeignLoadJpeg") {
            self = .jpeg
        } else if loaderClass.hasPrefix("VipsForeignLoadPng") {
            self = .png
        } else if loaderClass.hasPrefix("VipsForeignLoadWebp") {
            self = .webp
        } else if loaderClass.hasPrefix("VipsForeignLoadHeif") {
            self = .heif
        } else {
            return nil
        }
    }
}
