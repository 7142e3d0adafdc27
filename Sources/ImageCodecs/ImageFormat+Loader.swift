import PhotoFormat

extension ImageFormat {
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
