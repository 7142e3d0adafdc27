import CLibAVCodec
import Dispatch
import PhotoFormat
import PhotoStructure

/// Decodes a HEIC photo's primary image with FFmpeg's HEVC decoder, one tile after another into
/// one luma plane (and, when a preview is wanted, Cb and Cr planes), then hands the luma out in
/// strips of the displayed picture: cropped, turned and mirrored as the file says. The tiles are
/// independent pictures, so when the caller has idle cores they are split among threads.
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
    /// threads, and hands strips of at most `rowsPerStrip` rows of the displayed luma to `body`;
    /// with `keepingPreview`, returns the decoded planes for the preview.
    func decode(
        _ bytes: UnsafeRawBufferPointer,
        rowsPerStrip: Int,
        keepingPreview: Bool,
        threads: Int = 1,
        begin: (PixelGeometry) throws -> Void,
        body: (_ strip: UnsafePointer<UInt8>, _ firstRow: Int, _ rowCount: Int, _ rowStride: Int) throws -> Void
    ) throws -> PreviewPixels? {
        precondition(rowsPerStrip > 0, "strips need at least one row")
        let planes = try decodeTiles(bytes, keepingChroma: keepingPreview, threads: threads)
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

    /// Decodes every tile into planes of the assembled picture, on up to `threads` threads.
    private func decodeTiles(_ bytes: UnsafeRawBufferPointer, keepingChroma: Bool, threads: Int) throws(DecodeFailure) -> PreviewPixels {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw DecodeFailure(.corruptPixels, "the heif data is empty")
        }
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
        // The first tile is decoded alone: without an nclx box its bitstream decides the range
        // and matrix every later tile is read with, as libheif does.
        guard !container.tiles.isEmpty else { throw DecodeFailure(.corruptPixels, "the heif image has no tiles") }
        let first = HEIFTileRun(container: container, target: target)
        defer { first.close() }
        var colour = (fullRange: container.colour?.fullRange, matrix: container.colour?.matrix)
        try first.decode(0, colour: &colour)
        let fullRange = colour.fullRange ?? true
        let rest = 1..<container.tiles.count
        let groups = min(max(threads, 1), rest.count)
        if groups <= 1 {
            for index in rest { try first.decode(index, fullRange: fullRange) }
        } else {
            // Contiguous runs of tiles, one per thread, each with its own decoder and about the
            // same coded bytes (a tile's decode time follows its size: sky is cheaper than a
            // rug); a run stops at a tile after one that failed, so the failure reported is the
            // first in file order.
            let runs = Self.runs(of: rest.map { container.tiles[$0].reduce(0) { $0 + $1.count } }, groups: groups).map {
                ($0.lowerBound + rest.lowerBound)..<($0.upperBound + rest.lowerBound)
            }
            let failures = HEIFTileFailures()
            let decoders = [first] + (1..<groups).map { _ in HEIFTileRun(container: container, target: target) }
            defer { decoders.dropFirst().forEach { $0.close() } }
            DispatchQueue.concurrentPerform(iterations: groups) { group in
                for index in runs[group] where !failures.stops(before: index) {
                    do throws(DecodeFailure) {
                        try decoders[group].decode(index, fullRange: fullRange)
                    } catch {
                        failures.record(error, tile: index)
                        break
                    }
                }
            }
            if let failure = failures.first { throw failure }
        }
        planes.matrix = PreviewPixels.weights(matrix: colour.matrix ?? 2)
        planes.chromaGain = fullRange ? 1 : 255.0 / 224.0
        let transform = container.transform
        let corners = [transform.source(x: 0, y: 0), transform.source(x: transform.width - 1, y: transform.height - 1)]
        let left = corners.map(\.x).min()!, top = corners.map(\.y).min()!
        planes.crop = (left, top, corners.map(\.x).max()! - left + 1, corners.map(\.y).max()! - top + 1)
        planes.orientation = Self.orientation(of: transform)
        return planes
    }

    /// `groups` contiguous, non-empty ranges of `sizes`' indices (as many as there are sizes at
    /// most) whose sums are as even as cutting at the running total's multiples of 1/`groups` makes them.
    static func runs(of sizes: [Int], groups: Int) -> [Range<Int>] {
        let groups = min(max(groups, 1), sizes.count)
        guard groups > 1 else { return sizes.isEmpty ? [] : [0..<sizes.count] }
        let total = max(sizes.reduce(0, +), 1)
        var runs: [Range<Int>] = []
        var start = 0, running = 0
        for (index, size) in sizes.enumerated() {
            running += size
            let left = sizes.count - index - 1, runsLeft = groups - runs.count - 1
            // Cut once this run holds its share, or when every later run needs one tile of its own.
            if runsLeft > 0, running * groups >= total * (runs.count + 1) || left == runsLeft {
                runs.append(start..<(index + 1))
                start = index + 1
            }
        }
        runs.append(start..<sizes.count)
        return runs
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
