import PhotoFormat
import Synchronization

/// The first failing tile (in file order) of a decode whose tiles run on several threads: no
/// thread decodes a tile that comes after a known failure, while earlier ones are still decoded,
/// so the failure reported is the one a decode of the tiles one after another would report.
final class HEIFTileFailures: Sendable {
    private let earliest = Mutex<(tile: Int, failure: DecodeFailure)?>(nil)

    /// An empty record.
    init() {}

    /// Records `failure` of tile `tile` unless an earlier tile failed.
    func record(_ failure: DecodeFailure, tile: Int) {
        earliest.withLock { earliest in
            if earliest == nil || tile < earliest!.tile { earliest = (tile, failure) }
        }
    }

    /// Whether tile `tile` need not be decoded: an earlier tile failed.
    func stops(before tile: Int) -> Bool {
        earliest.withLock { $0.map { $0.tile < tile } ?? false }
    }

    /// The failure of the earliest failing tile, if any.
    var first: DecodeFailure? { earliest.withLock { $0?.failure } }
}
