import PhotoFormat
import PhotoStructure

/// How long one photo may keep a worker, from what its header declares: a fixed start plus a
/// cost per megapixel of its format and per megabyte of its file, times the margin that the
/// constants already hold, never more than the validation timeout. A small file that declares a
/// small picture cannot hold a worker for the whole timeout however it is built.
///
/// The constants (each format's in its `ImageFormatProfile`) are about four times what the slowest
/// real photo of each format measured per megapixel on one core of the development machine
/// (docs/reliability.md, "Deadlines").
package struct PhotoTimeLimit: Sendable, Equatable {
    /// Time every photo gets: the hand-over, the header, the measurement.
    package var base: Duration = .seconds(2)
    /// Time per declared megapixel, by format (`ImageFormatProfile.timePerMegapixel`).
    package var perMegapixel = Dictionary(uniqueKeysWithValues: ImageFormatProfile.all.map { ($0.format, $0.timePerMegapixel) })
    /// Time per megabyte of the file (entropy decoding reads every byte).
    package var perMegabyte: Duration = .milliseconds(100)
    /// The longest any photo may take (`limits.validation_timeout_seconds`).
    package var ceiling: Duration

    /// Limits that never exceed `ceiling`.
    package init(ceiling: Duration) {
        self.ceiling = ceiling
        #if DEBUG
        // Unoptimised Swift measures blur several times slower: a debug build's tests must not
        // time out real photos on a loaded machine.
        base = base * Self.debugFactor
        perMegapixel = perMegapixel.mapValues { $0 * Self.debugFactor }
        perMegabyte = perMegabyte * Self.debugFactor
        #endif
    }

    #if DEBUG
    /// How much more time a debug build gives every photo.
    static let debugFactor = 8
    #endif

    /// The time a photo of `byteCount` bytes declaring `size` may take (nil: no size could be read,
    /// so no decoder will get far).
    package func limit(for size: DeclaredSize?, byteCount: Int) -> Duration {
        var limit = base + perMegabyte * (Double(byteCount) / 1_000_000)
        if let size {
            limit += (perMegapixel[size.format] ?? .milliseconds(300)) * (Double(size.pixels) / 1_000_000)
        }
        return min(limit, ceiling)
    }
}
