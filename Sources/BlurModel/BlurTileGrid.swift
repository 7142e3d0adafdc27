import BlurMetrics

#if arch(x86_64)
import BlurModelAVX2
#endif

/// The tiles of a plane (models/blur/SPEC.md, "Tiles"): `columns` x `rows` tiles of `size` pixels,
/// centred (the margins are `(W - columns * size) / 2` and `(H - rows * size) / 2`), in row-major
/// order, and which of them the model evaluates.
package struct BlurTileGrid: Sendable, Equatable {
    /// The tile side.
    package let size: Int
    /// Tiles across.
    package let columns: Int
    /// Tiles down.
    package let rows: Int
    /// The first tile's left edge.
    package let originX: Int
    /// The first tile's top edge.
    package let originY: Int

    /// The grid of a `width` x `height` plane, or nil when a side is under `size` (no tile).
    package init?(width: Int, height: Int, size: Int) {
        guard size >= 3, width >= size, height >= size else { return nil }
        self.size = size
        columns = width / size
        rows = height / size
        originX = (width - columns * size) / 2
        originY = (height - rows * size) / 2
    }

    /// How many tiles there are.
    package var count: Int { columns * rows }

    /// The top-left pixel of tile `index` (row-major).
    package func origin(of index: Int) -> (x: Int, y: Int) {
        (originX + index % columns * size, originY + index / columns * size)
    }

    /// The detail score of every tile, row-major: over each tile's interior pixels (1...size-2 in
    /// both axes), the sum of |4c - up - down - left - right|, every neighbour inside the tile.
    /// `pixels` holds `width` samples per row; the row loop is `path`'s (every path gives the same sums).
    package func detailScores(pixels: UnsafePointer<UInt8>, width: Int, path: KernelPath = .best) -> [Int] {
        let gridWidth = columns * size
        var scores = [Int](repeating: 0, count: count)
        // Per column of the grid, a tile row's sum of responses, in 16 bits: at most 1020 per row,
        // so a tile taller than 66 rows flushes them to `wide` every 64 rows.
        var columnSums = [UInt16](repeating: 0, count: gridWidth)
        var wide = [Int](repeating: 0, count: gridWidth)
        for row in 0..<rows {
            let top = originY + row * size
            wide.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            columnSums.withUnsafeMutableBufferPointer { sums in
                let sums = sums.baseAddress!
                sums.update(repeating: 0, count: gridWidth)
                var rowsSummed = 0
                for y in (top + 1)..<(top + size - 1) {
                    let center = pixels + y * width + originX
                    // Columns 1 ..< gridWidth - 1: the grid's outer columns are tile edges, never scored.
                    Self.accumulateRow(above: center - width, center: center, below: center + width, into: sums, from: 1, to: gridWidth - 1, path: path)
                    rowsSummed += 1
                    if rowsSummed == 64 {
                        for x in 0..<gridWidth { wide[x] += Int(sums[x]) }
                        sums.update(repeating: 0, count: gridWidth)
                        rowsSummed = 0
                    }
                }
                for x in 0..<gridWidth { wide[x] += Int(sums[x]) }
            }
            for column in 0..<columns {
                var total = 0
                for x in (column * size + 1)...(column * size + size - 2) { total += wide[x] }
                scores[row * columns + column] = total
            }
        }
        return scores
    }

    /// One row's responses added to `sums` by the loop of `path`.
    @inline(__always)
    private static func accumulateRow(
        above: UnsafePointer<UInt8>, center: UnsafePointer<UInt8>, below: UnsafePointer<UInt8>,
        into sums: UnsafeMutablePointer<UInt16>, from start: Int, to end: Int, path: KernelPath
    ) {
        #if arch(x86_64)
        if path == .avx2 {
            DetailKernelAVX2.accumulateRow(above: above, center: center, below: below, into: sums, from: start, to: end)
            return
        }
        #endif
        DetailKernel.accumulateRow(above: above, center: center, below: below, into: sums, from: start, to: end)
    }

    /// The indices of the `limit` tiles with the highest scores (ties: the lower index first),
    /// in row-major order; every tile when there are fewer.
    package static func selected(scores: [Int], limit: Int) -> [Int] {
        guard scores.count > limit else { return Array(scores.indices) }
        let ranked = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        return ranked.prefix(limit).sorted()
    }
}
