import CLibAVCodec
import Dispatch
import PhotoFormat
import PhotoStructure
import Synchronization

/// Decodes a HEIC photo's primary image with FFmpeg's HEVC decoder, tile by tile into one luma
/// plane (and, when a preview is wanted, Cb and Cr planes), and hands the luma out in strips of the
/// displayed picture (cropped, turned and mirrored as the file says), each as soon as the tiles it
/// reads are decoded. The tiles are independent pictures, so when the caller has idle cores
/// several threads take them.
///
/// The container was read in Swift and every parameter set checked against it before this runs;
/// FFmpeg sees only the HEVC bitstream. Owns its C pointers; call it from one thread.
struct HEIFDecoder {
    /// The container read from the same bytes.
    let container: HEIFContainer

    /// The memory a decode needs beyond the strips: the planes, and for each of `threads`
    /// decoders a tile's coded bytes and FFmpeg's picture buffers for one tile.
    func estimatedBytes(keepingChroma: Bool, threads: Int = 1) -> Int {
        let luma = container.width * container.height
        // Two chroma planes: each a quarter of the luma at 4:2:0, a half at 4:2:2, all of it at
        // 4:4:4 and (neutral) for monochrome.
        let chromaShare = [4, 1, 2, 4][min(max(container.chromaFormat, 0), 3)]
        let chroma = keepingChroma ? 2 * luma * chromaShare / 4 : 0
        return luma + chroma + max(threads, 1) * (container.largestTileBytes + container.tileWidth * container.tileHeight * 6 + (4 << 20))
    }

    /// Decodes `bytes` (the file the container was read from), its tiles on up to `threads`
    /// threads, and hands strips of at most `rowsPerStrip` rows of the displayed luma to `body`,
    /// each as soon as the tiles it reads are decoded (`HEIFTileSchedule`); with `keepingPreview`,
    /// returns the decoded planes for the preview.
    ///
    /// On more than one thread, `body` runs on whichever thread decoded a strip's last tile, while
    /// the others go on decoding: never on two threads at once, and strips in order.
    func decode(
        _ bytes: UnsafeRawBufferPointer,
        rowsPerStrip: Int,
        keepingPreview: Bool,
        threads: Int = 1,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws -> PreviewPixels? {
        precondition(rowsPerStrip > 0, "strips need at least one row")
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw DecodeFailure(.corruptPixels, "the heif data is empty")
        }
        guard !container.tiles.isEmpty else { throw DecodeFailure(.corruptPixels, "the heif image has no tiles") }
        let transform = container.transform
        let geometry = PixelGeometry(width: transform.width, height: transform.height, bands: 1)
        let (planes, target) = allocatePlanes(base, keepingChroma: keepingPreview)
        try begin(geometry)
        let strip: UnsafeMutablePointer<UInt8>? = transform.isIdentity ? nil : .allocate(capacity: geometry.width * rowsPerStrip)
        defer { strip?.deallocate() }
        let schedule = HEIFTileSchedule(container: container, rowsPerStrip: rowsPerStrip)
        // Hands out the strips that are ready, unless another thread is already doing so.
        func handOut() throws {
            guard var strips = schedule.claimStrips() else { return }
            while true {
                for index in strips {
                    let top = index * rowsPerStrip
                    let count = min(rowsPerStrip, geometry.height - top)
                    if let strip {
                        transform.copyRows(top..<(top + count), from: planes.samples, storedWidth: container.width, bands: 1, into: strip)
                        try body(strip, top, count, geometry.width)
                    } else {
                        try body(planes.samples + top * container.width, top, count, container.width)
                    }
                }
                guard let more = schedule.handedOut() else { return }
                strips = more
            }
        }
        let first = HEIFTileRun(container: container, target: target)
        defer { first.close() }
        let colour = HEIFTileColour(fullRange: container.colour?.fullRange, matrix: container.colour?.matrix)
        // Tile 0 settles the colour whatever happens to it; this keeps the wait balanced on any
        // path that never reaches it (settling twice changes nothing).
        defer { colour.settle(fullRange: nil, matrix: nil) }
        let failures = HEIFTileFailures()
        let consumerFailure = Mutex<(any Error)?>(nil)
        // Tiles are taken one at a time, so threads stay busy until the last tile whatever each
        // costs; after a failure only earlier tiles are still decoded, so the failure reported is
        // the first in file order. The first tile is taken first: without an nclx box the other
        // threads decode theirs meanwhile and wait for its range only to copy.
        func work(_ run: HEIFTileRun) {
            while let tile = schedule.take() {
                guard !failures.stops(before: tile) else { continue }
                do throws(DecodeFailure) {
                    try run.decode(tile, colour: colour)
                } catch {
                    failures.record(error, tile: tile)
                    continue
                }
                schedule.decoded(tile)
                guard failures.first == nil else { continue }
                do {
                    try handOut()
                } catch {
                    consumerFailure.withLock { $0 = $0 ?? error }
                    schedule.stop()
                }
            }
        }
        let groups = min(max(threads, 1), container.tiles.count)
        if groups <= 1 {
            work(first)
        } else {
            let decoders = [first] + (1..<groups).map { _ in HEIFTileRun(container: container, target: target) }
            defer { decoders.dropFirst().forEach { $0.close() } }
            withoutActuallyEscaping(work) { work in
                // Each decoder is used by one iteration; strips go out under the schedule's lock.
                nonisolated(unsafe) let work = work
                DispatchQueue.concurrentPerform(iterations: groups) { group in work(decoders[group]) }
            }
        }
        // When `body` gave up, the decode stopped by its choice: its error, as on one thread,
        // even if a tile in flight on another thread failed meanwhile.
        if let failure = consumerFailure.withLock({ $0 }) { throw failure }
        if let failure = failures.first { throw failure }
        // Every strip has gone out by now (a thread handing strips out also takes those that
        // became ready meanwhile); this only keeps that true if the hand-over ever changes.
        try handOut()
        let (fullRange, matrix) = colour.value
        planes.matrix = PreviewPixels.weights(matrix: matrix)
        planes.chromaGain = fullRange ? 1 : 255.0 / 224.0
        let corners = [transform.source(x: 0, y: 0), transform.source(x: transform.width - 1, y: transform.height - 1)]
        let left = corners.map(\.x).min()!, top = corners.map(\.y).min()!
        planes.crop = (left, top, corners.map(\.x).max()! - left + 1, corners.map(\.y).max()! - top + 1)
        planes.orientation = Self.orientation(of: transform)
        return keepingPreview ? planes : nil
    }

    /// The planes of the assembled picture (chroma only when kept) and where tiles write them.
    private func allocatePlanes(_ base: UnsafePointer<UInt8>, keepingChroma: Bool) -> (PreviewPixels, HEIFTileRun.Target) {
        let width = container.width, height = container.height
        // 4:2:0 unless the parameter sets said otherwise; monochrome pictures get neutral chroma.
        let shiftX = container.chromaFormat == 1 || container.chromaFormat == 2 ? 1 : 0
        let shiftY = container.chromaFormat == 1 ? 1 : 0
        let (chromaWidth, chromaHeight) = PreviewPixels.chromaSize(width: width, height: height, shiftX: shiftX, shiftY: shiftY)
        let luma = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        var cb: UnsafeMutablePointer<UInt8>?, cr: UnsafeMutablePointer<UInt8>?
        if keepingChroma {
            cb = .allocate(capacity: chromaWidth * chromaHeight)
            cr = .allocate(capacity: chromaWidth * chromaHeight)
            cb!.initialize(repeating: 128, count: chromaWidth * chromaHeight)
            cr!.initialize(repeating: 128, count: chromaWidth * chromaHeight)
        }
        let planes = PreviewPixels(layout: .planar(chromaShiftX: shiftX, chromaShiftY: shiftY), width: width, height: height, samples: luma, cb: cb, cr: cr)
        let target = HEIFTileRun.Target(
            base: base, luma: luma, cb: cb, cr: cr, width: width, height: height,
            chromaWidth: chromaWidth, chromaHeight: chromaHeight, shiftX: shiftX, shiftY: shiftY
        )
        return (planes, target)
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
}
