/// The working memory of one estimate: two activation buffers the layers write in turn and the
/// tile's 256-entry normalisation table; allocated once per plane, reused for every tile.
struct BlurModelScratch: ~Copyable {
    /// The buffer the tile is written to, and every other layer's output.
    let first: UnsafeMutablePointer<Float>
    /// The other layers' output.
    let second: UnsafeMutablePointer<Float>
    /// The normalised value of each 8-bit sample for the current tile.
    let table: UnsafeMutablePointer<Float>

    /// Buffers of `count` floats each.
    init(count: Int) {
        first = .allocate(capacity: count)
        second = .allocate(capacity: count)
        table = .allocate(capacity: 256)
        first.initialize(repeating: 0, count: count)
        second.initialize(repeating: 0, count: count)
        table.initialize(repeating: 0, count: 256)
    }

    deinit {
        first.deallocate()
        second.deallocate()
        table.deallocate()
    }
}
