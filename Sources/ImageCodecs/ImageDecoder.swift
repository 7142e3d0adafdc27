import CVips
import PhotoFormat
import PhotoStructure

/// Opens photos from bytes in memory, refusing anything outside the allowed formats before any C
/// library parses it.
public struct ImageDecoder: Sendable {
    /// The default limit on declared pixels: 100 megapixels.
    public static let defaultPixelLimit = DeclaredSize.defaultPixelLimit
    /// The default cap on one decoder's own allocations: 128 MiB.
    public static let defaultMemoryLimit = 128 << 20

    /// Photos whose header declares more pixels than this are refused before any decode.
    public let pixelLimit: Int
    /// libjpeg's allocations for one decode may not exceed this many bytes.
    public let memoryLimit: Int
    /// What a file's structure may ask of a decoder, checked before any decoder sees it.
    public let costCaps: DecodeCostCaps

    /// Creates a decoder; starts libvips if it is not running yet.
    public init(
        pixelLimit: Int = ImageDecoder.defaultPixelLimit, memoryLimit: Int = ImageDecoder.defaultMemoryLimit,
        costCaps: DecodeCostCaps = DecodeCostCaps()
    ) throws(DecodeFailure) {
        try VipsRuntime.start()
        self.pixelLimit = pixelLimit
        self.memoryLimit = memoryLimit
        self.costCaps = costCaps
    }

    /// How strictly libvips' loader treats damage in `format`: PNG, WebP and HEIF stop on any
    /// warning (a bad CRC, a damaged tile), JPEG headers only on truncation (libjpeg decodes JPEG
    /// pixels and classifies its warnings itself).
    static func failOn(_ format: ImageFormat) -> VipsFailOn {
        format == .jpeg ? VIPS_FAIL_ON_TRUNCATED : VIPS_FAIL_ON_WARNING
    }

    /// True when libvips' loader must decode the whole picture before handing out rows: every
    /// WebP (libvips reads an animation's first frame that way), and a PNG whose IHDR declares
    /// Adam7 interlacing (or that has no readable IHDR, which libvips then refuses). Other PNGs
    /// stream in strips.
    static func loadsWhole(_ format: ImageFormat, _ bytes: UnsafeRawBufferPointer) -> Bool {
        switch format {
        case .webp: return true
        case .png:
            // The signature (8 bytes), IHDR's length and type (8), then width, height, bit depth,
            // colour type, compression and filter (13 bytes up to the interlace method at 28).
            guard bytes.count > 28, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return true }
            return bytes[28] != 0
        case .jpeg, .heif: return false
        }
    }

    /// Reads the header of `bytes` and checks the format and pixel limit; the image keeps a copy of
    /// the bytes, so they may change or go once this returns (`open(_:copying:)` has the rest).
    public func open(_ bytes: UnsafeRawBufferPointer) throws(DecodeFailure) -> EncodedImage {
        try open(bytes, copying: true)
    }

    /// Reads the header of `bytes` and checks the format and pixel limit. The image keeps a copy of
    /// the bytes; with `copying` false it reads them in place, and they must stay unchanged for as
    /// long as it lives (a decode worker's photo in its shared memory, checked and answered before
    /// the memory is written again: no second copy of every upload). Package-only: the lifetime
    /// rule is the caller's to keep.
    ///
    /// The format is decided from the magic bytes first and only that format's loader sees the
    /// bytes; a HEIC's container is read in Swift alone (no HEIC reaches libvips or libheif). No
    /// pixel is decoded here: a decompression bomb costs a header parse.
    package func open(_ bytes: UnsafeRawBufferPointer, copying: Bool) throws(DecodeFailure) -> EncodedImage {
        guard bytes.baseAddress != nil, bytes.count > 0 else {
            throw DecodeFailure(.emptyInput, "the upload is empty (0 bytes)")
        }
        let format: ImageFormat
        switch FormatSniffer.sniff(bytes) {
        case .format(let sniffed): format = sniffed
        case .refused(let reason): throw DecodeFailure(.unsupportedFormat, reason)
        }
        try costCaps.check(bytes, format: format)
        let owned: UnsafeMutableRawBufferPointer
        if copying {
            owned = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            owned.copyMemory(from: bytes)
        } else {
            // Only read, by the decoders as by the copy's.
            owned = UnsafeMutableRawBufferPointer(mutating: bytes)
        }
        func release() {
            if copying { owned.deallocate() }
        }
        if format == .heif {
            return try openHEIF(owned, ownsData: copying)
        }
        // The ticket passes to the image, which ends it when it is freed.
        let ticket = VipsErrorAttribution.begin()
        guard let image = pv_load_buffer(format.loaderIndex, owned.baseAddress, owned.count, Int32(Self.failOn(format).rawValue),
                                         Self.loadsWhole(format, UnsafeRawBufferPointer(owned)) ? 1 : 0) else {
            release()
            let detail = VipsErrorAttribution.message(for: ticket)
            VipsErrorAttribution.end(ticket)
            throw DecodeFailure(.unreadableHeader, "the \(format.rawValue) header is unreadable: \(detail)")
        }
        var jpeg: LibJPEGDecoder?
        if format == .jpeg {
            do {
                let decoder = try LibJPEGDecoder(bytes: UnsafeRawBufferPointer(owned), memoryLimit: memoryLimit, maximumScans: costCaps.jpegScans)
                jpeg = decoder.isSupportedColorSpace ? decoder : nil
            } catch {
                pv_object_unref(image)
                release()
                VipsErrorAttribution.end(ticket)
                throw DecodeFailure(.unreadableHeader, "the jpeg header is unreadable: \(error.message)")
            }
        }
        // Only bytes sniffed as WebP reach libwebp, after libvips' WebP loader read their header.
        let webp = format == .webp ? LibWebPDecoder(bytes: UnsafeRawBufferPointer(owned)) : nil
        return try checked(EncodedImage(image: image, data: owned, format: format, jpeg: jpeg, webp: webp, errorTicket: ticket, ownsData: copying))
    }

    /// Reads a HEIC's container in Swift; a file it refuses is refused, and no C library has
    /// seen its bytes.
    private func openHEIF(_ owned: UnsafeMutableRawBufferPointer, ownsData: Bool) throws(DecodeFailure) -> EncodedImage {
        let container: HEIFContainer
        do {
            container = try HEIFContainer.read(UnsafeRawBufferPointer(owned), caps: costCaps)
        } catch {
            if ownsData { owned.deallocate() }
            switch error.kind {
            case .malformed:
                throw DecodeFailure(.unreadableHeader, "the heif container is malformed: \(error.reason)")
            case .unsupported:
                throw DecodeFailure(.unsupportedFormat, "this HEIF is not accepted: \(error.reason); only HEIC photos as phones and cameras write them are")
            case .costly:
                throw DecodeFailure(.costlyStructure, "this HEIC is built to be slow or large to decode: \(error.reason)")
            }
        }
        guard container.width * container.height <= pixelLimit else {
            if ownsData { owned.deallocate() }
            throw DecodeFailure(
                .pixelLimitExceeded,
                "the image declares \(container.width)x\(container.height) pixels, over the limit of \(pixelLimit)"
            )
        }
        // The tiles decode more than the picture when they overhang it: that area counts too.
        let decoded = container.rows * container.columns * container.tileWidth * container.tileHeight
        guard decoded <= 2 * pixelLimit else {
            if ownsData { owned.deallocate() }
            throw DecodeFailure(
                .pixelLimitExceeded,
                "the image's tiles declare \(decoded) pixels, over the limit of \(pixelLimit)"
            )
        }
        return try checked(EncodedImage(heif: container, data: owned, ownsData: ownsData))
    }

    /// Checks the header's size against the pixel limit.
    private func checked(_ encoded: EncodedImage) throws(DecodeFailure) -> EncodedImage {
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
}
