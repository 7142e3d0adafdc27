import CLibAVCodec

/// Decodes a HEIC photo's primary image with FFmpeg's HEVC decoder, one tile after another into
/// one luma plane (and, when a preview is wanted, Cb and Cr planes), then hands the luma out in
/// strips of the displayed picture: cropped, turned and mirrored as the file says.
///
/// The container was read in Swift and every parameter set checked against it before this runs;
/// FFmpeg sees only the HEVC bitstream. Owns its C pointers; use it on one thread.
struct HEIFDecoder {
    /// The container read from the same bytes.
    let container: HEIFContainer

    /// The memory a decode needs beyond the strips: the planes, a tile's coded bytes and FFmpeg's
    /// picture buffers for one tile.
    func estimatedBytes(keepingChroma: Bool) -> Int {
        let luma = container.width * container.height
        // Two chroma planes: each a quarter of the luma at 4:2:0, a half at 4:2:2, all of it at
        // 4:4:4 and (neutral) for monochrome.
        let chromaShare = [4, 1, 2, 4][min(max(container.chromaFormat, 0), 3)]
        let chroma = keepingChroma ? 2 * luma * chromaShare / 4 : 0
        return luma + chroma + container.largestTileBytes
            + container.tileWidth * container.tileHeight * 6 + (4 << 20)
    }

    /// Decodes `bytes` (the file the container was read from) and hands strips of at most
    /// `rowsPerStrip` rows of the displayed luma to `body`; with `keepingPreview`, returns the
    /// decoded planes for the preview.
    func decode(
        _ bytes: UnsafeRawBufferPointer,
        rowsPerStrip: Int,
        keepingPreview: Bool,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws -> PreviewPixels? {
        precondition(rowsPerStrip > 0, "strips need at least one row")
        let planes = try decodeTiles(bytes, keepingChroma: keepingPreview)
        let transform = container.transform
        let geometry = PixelGeometry(width: transform.width, height: transform.height, bands: 1)
        try begin(geometry)
        if transform.isIdentity {
            var top = 0
            while top < geometry.height {
                let count = min(rowsPerStrip, geometry.height - top)
                try body(planes.samples + top * container.width, top, count, container.width)
                top += count
            }
        } else {
            let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: geometry.width * rowsPerStrip)
            defer { strip.deallocate() }
            var top = 0
            while top < geometry.height {
                let count = min(rowsPerStrip, geometry.height - top)
                transform.copyRows(top..<(top + count), from: planes.samples, storedWidth: container.width, bands: 1, into: strip)
                try body(strip, top, count, geometry.width)
                top += count
            }
        }
        return keepingPreview ? planes : nil
    }

    /// Decodes every tile into planes of the assembled picture.
    private func decodeTiles(_ bytes: UnsafeRawBufferPointer, keepingChroma: Bool) throws(DecodeFailure) -> PreviewPixels {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw DecodeFailure(.corruptPixels, "the heif data is empty")
        }
        let width = container.width, height = container.height
        // 4:2:0 unless the parameter sets said otherwise; monochrome pictures get neutral chroma.
        let shiftX = container.chromaFormat == 1 || container.chromaFormat == 2 ? 1 : 0
        let shiftY = container.chromaFormat == 1 ? 1 : 0
        let chromaWidth = (width + (1 << shiftX) - 1) >> shiftX, chromaHeight = (height + (1 << shiftY) - 1) >> shiftY
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        var cb: UnsafeMutablePointer<UInt8>?, cr: UnsafeMutablePointer<UInt8>?
        if keepingChroma {
            cb = .allocate(capacity: chromaWidth * chromaHeight)
            cr = .allocate(capacity: chromaWidth * chromaHeight)
            cb!.initialize(repeating: 128, count: chromaWidth * chromaHeight)
            cr!.initialize(repeating: 128, count: chromaWidth * chromaHeight)
        }
        let planes = PreviewPixels(layout: .planar(chromaShiftX: shiftX, chromaShiftY: shiftY), width: width, height: height, samples: luma, cb: cb, cr: cr)
        // A bitstream may not declare a picture much larger than its tile (coded sizes round up
        // to whole coding blocks); the reader has checked every parameter set it could see.
        let pixelCap = (container.tileWidth + 64) * (container.tileHeight + 64)
        let padding = pv_hevc_padding()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: container.largestTileBytes + padding)
        defer { buffer.deallocate() }
        var decoder: OpaquePointer?
        var openConfiguration: Range<Int>?
        defer { pv_hevc_close(decoder) }
        var fullRange = container.colour?.fullRange
        var matrix = container.colour?.matrix
        for (index, extents) in container.tiles.enumerated() {
            // Tiles that share a configuration share a decoder, as a camera writes them.
            let configuration = container.configurations[index]
            if configuration != openConfiguration {
                pv_hevc_close(decoder)
                decoder = pv_hevc_open(base + configuration.lowerBound, configuration.count, pixelCap)
                openConfiguration = configuration
                guard let decoder else { throw DecodeFailure(.memoryLimitExceeded, "no memory for an HEVC decoder") }
                guard pv_hevc_status_of(decoder) == PV_HEVC_OK else { throw failure(decoder, tile: nil) }
            }
            guard let decoder else { throw DecodeFailure(.memoryLimitExceeded, "no memory for an HEVC decoder") }
            var length = 0
            for extent in extents {
                (buffer + length).update(from: base + extent.lowerBound, count: extent.count)
                length += extent.count
            }
            (buffer + length).initialize(repeating: 0, count: padding)
            var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0
            guard pv_hevc_decode(decoder, buffer, length, &decodedWidth, &decodedHeight) == 0 else {
                throw failure(decoder, tile: index)
            }
            defer { pv_hevc_release(decoder) }
            guard Int(decodedWidth) == container.tileWidth, Int(decodedHeight) == container.tileHeight else {
                throw DecodeFailure(
                    .corruptPixels,
                    "the heif pixel data is corrupt: tile \(index + 1) decodes to \(decodedWidth)x\(decodedHeight), the file declares \(container.tileWidth)x\(container.tileHeight)"
                )
            }
            var info = pv_hevc_frame_info_t()
            pv_hevc_frame_info(decoder, &info)
            // The file's nclx decides; without one the bitstream does, as for libheif.
            if fullRange == nil { fullRange = info.full_range != 0 }
            if matrix == nil { matrix = Int(info.matrix) }
            let left = (index % container.columns) * container.tileWidth
            let top = (index / container.columns) * container.tileHeight
            let copyWidth = min(container.tileWidth, width - left)
            let copyHeight = min(container.tileHeight, height - top)
            // FFmpeg reports no error when damage ends a slice early; the unwritten part shows.
            guard pv_hevc_check_decoded(decoder, Int32(copyWidth), Int32(copyHeight)) == 0 else {
                throw failure(decoder, tile: index)
            }
            guard pv_hevc_copy_plane(decoder, 0, luma + top * width + left, width, Int32(copyWidth), Int32(copyHeight), fullRange! ? 0 : 1) == 0 else {
                throw failure(decoder, tile: index)
            }
            if let cb, let cr, info.has_chroma != 0 {
                guard Int(info.chroma_shift_x) == shiftX, Int(info.chroma_shift_y) == shiftY else {
                    throw DecodeFailure(.corruptPixels, "the heif pixel data is corrupt: tile \(index + 1) has another chroma format than its parameter sets")
                }
                let chromaLeft = left >> shiftX, chromaTop = top >> shiftY
                let chromaCopyWidth = min((copyWidth + (1 << shiftX) - 1) >> shiftX, chromaWidth - chromaLeft)
                let chromaCopyHeight = min((copyHeight + (1 << shiftY) - 1) >> shiftY, chromaHeight - chromaTop)
                for (plane, destination) in [(Int32(1), cb), (Int32(2), cr)] {
                    guard pv_hevc_copy_plane(
                        decoder, plane, destination + chromaTop * chromaWidth + chromaLeft, chromaWidth,
                        Int32(chromaCopyWidth), Int32(chromaCopyHeight), 0
                    ) == 0 else {
                        throw failure(decoder, tile: index)
                    }
                }
            }
        }
        planes.matrix = PreviewPixels.weights(matrix: matrix ?? 2)
        planes.chromaGain = fullRange ?? true ? 1 : 255.0 / 224.0
        let transform = container.transform
        let corners = [transform.source(x: 0, y: 0), transform.source(x: transform.width - 1, y: transform.height - 1)]
        let left = corners.map(\.x).min()!, top = corners.map(\.y).min()!
        planes.crop = (left, top, corners.map(\.x).max()! - left + 1, corners.map(\.y).max()! - top + 1)
        planes.orientation = Self.orientation(of: transform)
        return planes
    }

    /// The clockwise turn and mirror (in that order) of a transform's matrix.
    static func orientation(of transform: PixelTransform) -> (degrees: Int, mirrored: Bool) {
        let origin = transform.source(x: 0, y: 0)
        let right = transform.source(x: 1, y: 0), down = transform.source(x: 0, y: 1)
        switch (right.x - origin.x, right.y - origin.y, down.x - origin.x, down.y - origin.y) {
        case (-1, 0, 0, 1): return (0, true)
        case (-1, 0, 0, -1): return (180, false)
        case (1, 0, 0, -1): return (180, true)
        case (0, 1, -1, 0): return (270, false)
        case (0, -1, 1, 0): return (90, false)
        case (0, 1, 1, 0): return (90, true)
        case (0, -1, -1, 0): return (270, true)
        default: return (0, false)
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
}
