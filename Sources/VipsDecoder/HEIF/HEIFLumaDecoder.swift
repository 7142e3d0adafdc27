import CLibAVCodec

/// Decodes the luma plane of a HEIC photo's primary image with FFmpeg's HEVC decoder, one tile
/// after another into one plane, then hands it out in strips, rotated as the file says.
///
/// libheif 1.15 (behind libvips) decodes each tile with libde265 and converts every pixel to RGB,
/// which the blur check then turns back into luma; FFmpeg's decoder is about twice as fast, and
/// the luma plane is all the check needs. Owns its C pointers; use it on one thread.
struct HEIFLumaDecoder {
    /// The container read from the same bytes.
    let container: HEIFContainer

    /// The memory this decode needs beyond the strips: the plane, a tile's coded bytes and
    /// FFmpeg's picture buffers for one tile.
    var estimatedBytes: Int {
        container.width * container.height + container.largestTileBytes
            + container.tileWidth * container.tileHeight * 6 + (4 << 20)
    }

    /// Decodes `bytes` (the file the container was read from) and hands strips of at most
    /// `rowsPerStrip` rows of the displayed picture to `body`.
    func decode(
        _ bytes: UnsafeRawBufferPointer,
        rowsPerStrip: Int,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws {
        precondition(rowsPerStrip > 0, "strips need at least one row")
        let width = container.width, height = container.height
        let plane = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        defer { plane.deallocate() }
        try decodeTiles(bytes, into: plane)
        let geometry = PixelGeometry(width: container.displayedWidth, height: container.displayedHeight, bands: 1)
        try begin(geometry)
        if container.quarterTurns == 0 {
            var top = 0
            while top < height {
                let count = min(rowsPerStrip, height - top)
                try body(plane + top * width, top, count, width)
                top += count
            }
            return
        }
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: geometry.width * rowsPerStrip)
        defer { strip.deallocate() }
        var top = 0
        while top < geometry.height {
            let count = min(rowsPerStrip, geometry.height - top)
            Self.rotate(plane, width: width, height: height, quarterTurns: container.quarterTurns, rows: top..<(top + count), into: strip)
            try body(strip, top, count, geometry.width)
            top += count
        }
    }

    private func decodeTiles(_ bytes: UnsafeRawBufferPointer, into plane: UnsafeMutablePointer<UInt8>) throws(DecodeFailure) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw DecodeFailure(.corruptPixels, "the heif data is empty")
        }
        let configuration = container.configuration
        // A bitstream may not declare a picture much larger than its tile (coded sizes round up
        // to whole coding blocks).
        let pixelCap = (container.tileWidth + 64) * (container.tileHeight + 64)
        // One decoder for every tile: the reader has checked that no tile carries parameter sets
        // of its own, so each decodes with the configuration's, as libheif decodes it.
        guard let decoder = pv_hevc_open(base + configuration.lowerBound, configuration.count, pixelCap) else {
            throw DecodeFailure(.memoryLimitExceeded, "no memory for an HEVC decoder")
        }
        defer { pv_hevc_close(decoder) }
        guard pv_hevc_status_of(decoder) == PV_HEVC_OK else { throw failure(decoder, tile: nil) }
        let padding = pv_hevc_padding()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: container.largestTileBytes + padding)
        defer { buffer.deallocate() }
        for (index, extents) in container.tiles.enumerated() {
            var length = 0
            for extent in extents {
                (buffer + length).update(from: base + extent.lowerBound, count: extent.count)
                length += extent.count
            }
            (buffer + length).initialize(repeating: 0, count: padding)
            let left = (index % container.columns) * container.tileWidth
            let top = (index / container.columns) * container.tileHeight
            let copyWidth = min(container.tileWidth, container.width - left)
            let copyHeight = min(container.tileHeight, container.height - top)
            var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0
            guard pv_hevc_decode_luma(
                decoder, buffer, length, plane + top * container.width + left, container.width,
                Int32(copyWidth), Int32(copyHeight), container.describesColour ? 0 : 1, &decodedWidth, &decodedHeight
            ) == 0 else {
                throw failure(decoder, tile: index)
            }
            guard Int(decodedWidth) == container.tileWidth, Int(decodedHeight) == container.tileHeight else {
                throw DecodeFailure(
                    .corruptPixels,
                    "the heif pixel data is corrupt: tile \(index + 1) decodes to \(decodedWidth)x\(decodedHeight), the file declares \(container.tileWidth)x\(container.tileHeight)"
                )
            }
        }
    }

    private func failure(_ decoder: OpaquePointer, tile: Int?) -> DecodeFailure {
        let message = String(cString: pv_hevc_message(decoder))
        let place = tile.map { " in tile \($0 + 1) of \(container.tiles.count)" } ?? ""
        switch pv_hevc_status_of(decoder) {
        case PV_HEVC_MEMORY:
            return DecodeFailure(.memoryLimitExceeded, "decoding this HEIC needs more memory than allowed\(place): \(message)")
        case PV_HEVC_UNSUPPORTED:
            return DecodeFailure(.corruptPixels, "the heif pixel data cannot be read\(place): \(message)")
        default:
            return DecodeFailure(.corruptPixels, "the heif pixel data is truncated or corrupt\(place): \(message)")
        }
    }

    /// Writes `rows` of the picture turned `quarterTurns` times anticlockwise into `strip`.
    static func rotate(
        _ plane: UnsafePointer<UInt8>, width: Int, height: Int, quarterTurns: Int, rows: Range<Int>,
        into strip: UnsafeMutablePointer<UInt8>
    ) {
        switch quarterTurns {
        case 1:
            // Output (x, y) is source (width - 1 - y, x): each source row gives one output column.
            let outputWidth = height
            for sourceRow in 0..<height {
                let source = plane + sourceRow * width
                for (offset, y) in rows.enumerated() {
                    strip[offset * outputWidth + sourceRow] = source[width - 1 - y]
                }
            }
        case 2:
            for (offset, y) in rows.enumerated() {
                let source = plane + (height - 1 - y) * width
                let output = strip + offset * width
                for x in 0..<width {
                    output[x] = source[width - 1 - x]
                }
            }
        default:
            // Three quarter turns: output (x, y) is source (y, height - 1 - x).
            let outputWidth = height
            for sourceRow in 0..<height {
                let source = plane + sourceRow * width
                let x = height - 1 - sourceRow
                for (offset, y) in rows.enumerated() {
                    strip[offset * outputWidth + x] = source[y]
                }
            }
        }
    }
}
