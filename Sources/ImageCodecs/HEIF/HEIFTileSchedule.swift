import PhotoStructure
import Synchronization

/// The order a HEIC's tiles are decoded in, and which strips of the displayed picture they
/// complete: tiles are taken in the order the strips read them (tile 0 first), and a strip is
/// handed out as soon as every tile it reads is decoded, by whichever thread decoded the last of
/// them, while the other threads go on decoding. One thread hands strips out at a time, in order.
///
/// Every tile is taken once, also the ones no strip reads (a crop may leave some out), so a
/// damaged tile fails the photo whatever the crop.
final class HEIFTileSchedule: Sendable {
    /// Tile indices in decode order: tile 0, then each tile by the first strip that reads it, then
    /// the tiles no strip reads.
    let order: [Int]
    /// Strips in the displayed picture.
    let stripCount: Int
    /// For each strip, how many tiles at the front of `order` it needs decoded; never decreasing.
    let needed: [Int]
    private let state: Mutex<State>

    private struct State {
        /// The next position of `order` to take.
        var next = 0
        /// Whether each tile (by index) is decoded.
        var decoded: [Bool]
        /// Positions of `order` at the front that are all decoded.
        var decodedPrefix = 0
        /// Strips handed out so far, from the top.
        var handedOut = 0
        /// Whether a thread is handing strips out.
        var handingOut = false
        /// No more tiles are taken.
        var stopped = false
    }

    /// The schedule of `container`'s tiles for strips of `rowsPerStrip` displayed rows.
    convenience init(container: HEIFContainer, rowsPerStrip: Int) {
        self.init(
            transform: container.transform, tileWidth: container.tileWidth, tileHeight: container.tileHeight,
            columns: container.columns, rows: container.rows, tileCount: container.tiles.count, rowsPerStrip: rowsPerStrip
        )
    }

    /// The schedule of a grid of `columns` x `rows` tiles of `tileWidth` x `tileHeight` (the first
    /// `tileCount`, row by row), shown through `transform`, for strips of `rowsPerStrip` rows.
    init(transform: PixelTransform, tileWidth: Int, tileHeight: Int, columns: Int, rows: Int, tileCount: Int, rowsPerStrip: Int) {
        precondition(rowsPerStrip > 0, "strips need at least one row")
        var order: [Int] = []
        var position = [Int](repeating: -1, count: tileCount)
        func take(_ tile: Int) {
            guard tile < tileCount, position[tile] < 0 else { return }
            position[tile] = order.count
            order.append(tile)
        }
        take(0)
        let stripCount = (transform.height + rowsPerStrip - 1) / rowsPerStrip
        var needed: [Int] = []
        needed.reserveCapacity(stripCount)
        for strip in 0..<stripCount {
            let top = strip * rowsPerStrip, bottom = min(top + rowsPerStrip, transform.height) - 1
            // The map is a signed permutation plus a shift: the corners bound what the strip reads.
            let corners = [(0, top), (transform.width - 1, top), (0, bottom), (transform.width - 1, bottom)].map { transform.source(x: $0.0, y: $0.1) }
            let columnsRead = Self.tiles(corners.map(\.x), size: tileWidth, count: columns)
            let rowsRead = Self.tiles(corners.map(\.y), size: tileHeight, count: rows)
            for row in rowsRead {
                for column in columnsRead { take(row * columns + column) }
            }
            needed.append(order.count)
        }
        for tile in 0..<tileCount { take(tile) }
        self.order = order
        self.stripCount = stripCount
        self.needed = needed
        self.state = Mutex(State(decoded: [Bool](repeating: false, count: tileCount)))
    }

    /// The tiles (rows or columns) that stored coordinates `coordinates` span, within `count`.
    private static func tiles(_ coordinates: [Int], size: Int, count: Int) -> ClosedRange<Int> {
        let first = min(max(coordinates.min()! / max(size, 1), 0), max(count - 1, 0))
        let last = min(max(coordinates.max()! / max(size, 1), first), max(count - 1, 0))
        return first...last
    }

    /// The next tile to decode, or nil when every tile is taken or the schedule was stopped.
    func take() -> Int? {
        state.withLock { state in
            guard !state.stopped, state.next < order.count else { return nil }
            state.next += 1
            return order[state.next - 1]
        }
    }

    /// Records that `tile` is decoded.
    func decoded(_ tile: Int) {
        state.withLock { state in
            state.decoded[tile] = true
            while state.decodedPrefix < order.count, state.decoded[order[state.decodedPrefix]] {
                state.decodedPrefix += 1
            }
        }
    }

    /// Stops handing out tiles: the strips' consumer gave up.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// The strips whose tiles are all decoded and that no thread has handed out, when no other
    /// thread is handing strips out: the caller then hands these out and calls `handedOut()`.
    func claimStrips() -> Range<Int>? {
        state.withLock { state in
            guard !state.handingOut, let strips = ready(&state) else { return nil }
            state.handingOut = true
            return strips
        }
    }

    /// After handing out claimed strips: the strips that became ready meanwhile, which the caller
    /// hands out too, or nil when there are none (another thread may claim later ones).
    func handedOut() -> Range<Int>? {
        state.withLock { state in
            if let strips = ready(&state) { return strips }
            state.handingOut = false
            return nil
        }
    }

    private func ready(_ state: inout State) -> Range<Int>? {
        var end = state.handedOut
        while end < stripCount, needed[end] <= state.decodedPrefix { end += 1 }
        guard end > state.handedOut else { return nil }
        defer { state.handedOut = end }
        return state.handedOut..<end
    }
}
