import CVips

/// Opens photos from bytes in memory with libvips, refusing anything outside the allowed formats.
public struct ImageDecoder: Sendable {
    /// The default limit on declared pixels: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000

    /// Photos whose header declares more pixels than this are refused before any decode.
    public let pixelLimit: Int

    /// Creates a decoder; starts libvips if it is not running yet.
    public init(pixelLimit: Int = ImageDecoder.defaultPixelLimit) throws(DecodeFailure) {
        try VipsRuntime.start()
        self.pixelLimit = pixelLimit
    }

    /// Reads the header of `bytes` (the bytes are copied) and checks the format and pixel limit.
    ///
    /// No pixel is decoded here: a decompression bomb costs a header parse.
    public func open(_ bytes: UnsafeRawBufferPointer) throws(DecodeFailure) -> EncodedImage {
        guard let source = bytes.baseAddress, bytes.count > 0 else {
            throw DecodeFailure(.emptyInput, "the upload is empty (0 bytes)")
        }
        guard let loader = vips_foreign_find_load_buffer(source, bytes.count) else {
            _ = VipsRuntime.takeErrorMessage()
            throw DecodeFailure(.unsupportedFormat, "the bytes are not a JPEG, PNG, WebP or HEIC image")
        }
        guard let format = ImageFormat(loaderClass: String(cString: loader)) else {
            throw DecodeFailure(.unsupportedFormat, "\(String(cString: loader)) is not an allowed loader")
        }
        if format == .heif, Self.isAVIF(bytes) {
            throw DecodeFailure(.unsupportedFormat, "AVIF is not accepted; only HEIC among HEIF images")
        }
        let owned = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        owned.copyMemory(from: bytes)
        guard let image = pv_image_new_from_buffer(owned.baseAddress, owned.count) else {
            owned.deallocate()
            throw DecodeFailure(.unreadableHeader, "the \(format.rawValue) header is unreadable: \(VipsRuntime.takeErrorMessage())")
        }
        let encoded = EncodedImage(image: image, data: owned, format: format)
        if format == .heif, let compression = encoded.stringField("heif-compression"), compression != "hevc" {
            throw DecodeFailure(.unsupportedFormat, "HEIF with \(compression) coding (for example AVIF) is not accepted; only HEIC")
        }
        let header = encoded.header
        guard header.storedWidth > 0, header.storedHeight > 0 else {
            throw DecodeFailure(.unreadableHeader, "the header declares an empty image")
        }
        guard header.pixelCount <= pixelLimit else {
            throw DecodeFailure(
                .pixelLimitExceeded,
                "the image declares \(header.storedWidth)x\(header.storedHeight) pixels, over the limit of \(pixelLimit)"
            )
        }
        return encoded
    }

    /// True when the ISO-BMFF `ftyp` box names an AVIF brand, so AVIF is refused before libheif
    /// parses it (files whose brand is the generic `mif1` are caught by their coding later).
    static func isAVIF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let brand = String(decoding: bytes[8..<12], as: UTF8.self)
        return brand == "avif" || brand == "avis"
    }
}
