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

    /// The loader index `pv_load_buffer` takes (HEIC has none).
    var loaderIndex: Int32 {
        switch self {
        case .jpeg: 0
        case .png: 1
        case .webp: 2
        case .heif: -1
        }
    }

    /// The libvips loader class for the format: the only loaders left unblocked. None for HEIC:
    /// libheif never sees an upload.
    var vipsLoader: String? {
        switch self {
        case .jpeg: "VipsForeignLoadJpeg"
        case .png: "VipsForeignLoadPng"
        case .webp: "VipsForeignLoadWebp"
        case .heif: nil
        }
    }
}
