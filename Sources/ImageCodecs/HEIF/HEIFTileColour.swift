import Dispatch
import Synchronization

/// The range and matrix every tile of a HEIC is read with: the file's `nclx` box, or without one
/// the first tile's bitstream, as libheif does. The other tiles are decoded meanwhile; a thread
/// waits for the first tile's answer only before copying its own tile's samples.
final class HEIFTileColour: Sendable {
    private let settled: Mutex<(fullRange: Bool?, matrix: Int?)>
    private let known = DispatchGroup()

    /// The colour `fullRange` and `matrix` give (the file's nclx box); where either is nil the
    /// first tile settles it (`settle`).
    init(fullRange: Bool?, matrix: Int?) {
        settled = Mutex((fullRange, matrix))
        if fullRange == nil || matrix == nil { known.enter() }
    }

    /// Settles what the file left open from the first tile's bitstream (`nil`: the first tile
    /// failed, and full range BT.601 is assumed so no thread waits for ever). Call it once, from
    /// the first tile's decode, whether it succeeded or not.
    func settle(fullRange: Bool?, matrix: Int?) {
        let waited = settled.withLock { colour in
            let waited = colour.fullRange == nil || colour.matrix == nil
            colour = (colour.fullRange ?? fullRange ?? true, colour.matrix ?? matrix ?? 2)
            return waited
        }
        if waited { known.leave() }
    }

    /// The range and matrix, once settled: waits for the first tile when the file left them open.
    var value: (fullRange: Bool, matrix: Int) {
        known.wait()
        return settled.withLock { ($0.fullRange ?? true, $0.matrix ?? 2) }
    }
}
