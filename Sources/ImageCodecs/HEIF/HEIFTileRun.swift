import CLibAVCodec
import PhotoFormat
import PhotoStructure

/// One FFmpeg HEVC decoder and its tile buffer, decoding tiles of one HEIC image one after another
/// into the assembled planes (`Target`). Tiles that share a configuration share the decoder, as a
/// camera writes them. Use each run on one thread at a time; runs on other threads write other
/// tiles' parts of the planes.
final class HEIFTileRun: @unchecked Sendable {
    /// Where the tiles come from and go: the file's bytes and the assembled planes.
    struct Target: @unchecked Sendable {
        /// The file the container was read from.
        let base: UnsafePointer<UInt8>
        /// The luma plane, `width` x `height`.
        let luma: UnsafeMutablePointer<UInt8>
        /// The Cb plane, when chroma is kept.
        let cb: UnsafeMutablePointer<UInt8>?
        /// The Cr plane, when chroma is kept.
        let cr: UnsafeMutablePointer<UInt8>?
        /// The assembled picture's width.
        let width: Int
        /// The assembled picture's height.
        let height: Int
        /// The chroma planes' width.
        let chromaWidth: Int
        /// The chroma planes' height.
        let chromaHeight: Int
        /// log2 of the chroma subsampling across.
        let shiftX: Int
        /// log2 of the chroma subsampling down.
        let shiftY: Int
    }

    private let container: HEIFContainer
    private let target: Target
    private let buffer: UnsafeMutablePointer<UInt8>
    private let padding: Int
    private var decoder: OpaquePointer?
    private var openConfiguration: Range<Int>?

    /// A run with no decoder open yet; `close()` frees what it opened.
    init(container: HEIFContainer, target: Target) {
        self.container = container
        self.target = target
        padding = pv_hevc_padding()
        buffer = .allocate(capacity: container.largestTileBytes + padding)
    }

    /// Frees the decoder and the tile buffer.
    func close() {
        pv_hevc_close(decoder)
        decoder = nil
        buffer.deallocate()
    }

    /// Decodes tile `index` and copies it into the planes with the range `colour` settles: the
    /// first tile (index 0) settles what the file left open, whether it decodes or not; any
    /// other waits for that before copying. After a failure the decoder is closed, so the next
    /// tile (tiles are not taken in file order) starts from a fresh one.
    func decode(_ index: Int, colour: HEIFTileColour) throws(DecodeFailure) {
        do {
            try decodeTile(index, colour: colour)
        } catch {
            // FFmpeg's state after a damaged picture is not to be trusted: reused, it failed the
            // next, intact tile of the same photo.
            pv_hevc_close(decoder)
            decoder = nil
            openConfiguration = nil
            throw error
        }
    }

    private func decodeTile(_ index: Int, colour: HEIFTileColour) throws(DecodeFailure) {
        var frame: (fullRange: Bool?, matrix: Int?) = (nil, nil)
        defer { if index == 0 { colour.settle(fullRange: frame.fullRange, matrix: frame.matrix) } }
        // A bitstream may not declare a picture much larger than its tile (coded sizes round up
        // to whole coding blocks); the reader has checked every parameter set it could see.
        let configuration = container.configurations[index]
        if configuration != openConfiguration {
            pv_hevc_close(decoder)
            decoder = pv_hevc_open(target.base + configuration.lowerBound, configuration.count, (container.tileWidth + 64) * (container.tileHeight + 64))
            openConfiguration = configuration
            guard let decoder else { throw DecodeFailure(.memoryLimitExceeded, "no memory for an HEVC decoder") }
            guard pv_hevc_status_of(decoder) == PV_HEVC_OK else { throw failure(decoder, tile: nil) }
        }
        guard let decoder else { throw DecodeFailure(.memoryLimitExceeded, "no memory for an HEVC decoder") }
        var length = 0
        for extent in container.tiles[index] {
            (buffer + length).update(from: target.base + extent.lowerBound, count: extent.count)
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
        // The file's nclx decides; without one the first tile's bitstream does, as for libheif.
        frame = (info.full_range != 0, Int(info.matrix))
        let left = (index % container.columns) * container.tileWidth
        let top = (index / container.columns) * container.tileHeight
        let copyWidth = min(container.tileWidth, target.width - left)
        let copyHeight = min(container.tileHeight, target.height - top)
        // FFmpeg reports no error when damage ends a slice early; the unwritten part shows.
        guard pv_hevc_check_decoded(decoder, Int32(copyWidth), Int32(copyHeight)) == 0 else {
            throw failure(decoder, tile: index)
        }
        if index == 0 { colour.settle(fullRange: frame.fullRange, matrix: frame.matrix) }
        guard pv_hevc_copy_plane(decoder, 0, target.luma + top * target.width + left, target.width, Int32(copyWidth), Int32(copyHeight), colour.value.fullRange ? 0 : 1) == 0 else {
            throw failure(decoder, tile: index)
        }
        guard let cb = target.cb, let cr = target.cr, info.has_chroma != 0 else { return }
        guard Int(info.chroma_shift_x) == target.shiftX, Int(info.chroma_shift_y) == target.shiftY else {
            throw DecodeFailure(.corruptPixels, "the heif pixel data is corrupt: tile \(index + 1) has another chroma format than its parameter sets")
        }
        let chromaLeft = left >> target.shiftX, chromaTop = top >> target.shiftY
        let chromaCopyWidth = min((copyWidth + (1 << target.shiftX) - 1) >> target.shiftX, target.chromaWidth - chromaLeft)
        let chromaCopyHeight = min((copyHeight + (1 << target.shiftY) - 1) >> target.shiftY, target.chromaHeight - chromaTop)
        for (plane, destination) in [(Int32(1), cb), (Int32(2), cr)] {
            guard pv_hevc_copy_plane(
                decoder, plane, destination + chromaTop * target.chromaWidth + chromaLeft, target.chromaWidth,
                Int32(chromaCopyWidth), Int32(chromaCopyHeight), 0
            ) == 0 else {
                throw failure(decoder, tile: index)
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
}
