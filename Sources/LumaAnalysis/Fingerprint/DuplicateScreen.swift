/// Candidates before comparisons: an index of a new photo's fingerprint that screens a project's
/// earlier photos in microseconds each, so that only the few that could be copies of it get the
/// full comparison (mutual matching of 128 descriptors each, RANSAC and the thumbnails'
/// correlation, tens to hundreds of microseconds).
///
/// An earlier photo is a candidate when its global hash is within the rule's distance in some
/// quarter turn (the hash may decide), or when at least the rule's `minimumInliers` of its
/// descriptors each share one of the sixteen 16-bit chunks of some descriptor of the new photo and
/// are within `closeDistance` (40) bits of it (the features may decide). Two descriptors within 15
/// bits always share a chunk (16 chunks, at most 15 differing bits); a copy's descriptors are mostly
/// that close (re-compression, brightness and crops leave them nearly identical, a resize or turn
/// somewhat less), another photo's seldom. On the labelled pairs (testdata/DUPLICATES.md) every
/// pair the rule calls a duplicate passes (the fewest such descriptors among those the hash does
/// not decide: 10, the screen needs 4) while 83% of the hard distinct pairs (the same flat, the
/// same room) and 92% of distinct pairs from one folder are spared the full comparison;
/// `tune --check duplicates` prints both.
///
/// A pure value built once per new photo, 24 KiB whatever the photo, small enough to stay in the
/// processor's first-level cache while a project is screened: for each chunk position, a bitmap of
/// the values the new photo's descriptors take there (folded to 12 bits: 8 KiB in all) and an
/// open-addressed table of those values and their descriptors (256 slots a position, at most 128
/// used: 16 KiB). Screening one earlier photo tests its 2,048 chunks against the bitmap, looks the
/// few that pass up in the table, and computes at most one full distance per descriptor pair that
/// shares a chunk, never more than the 128 x 128 distances of the full comparison.
public struct DuplicateScreen: Sendable {
    /// The new photo's fingerprint, which candidates are compared with in full.
    public let fingerprint: PhotoFingerprint
    /// When two photos are one photo.
    public let rule: DuplicateRule
    /// Descriptors of an earlier photo that must share a chunk with, and be within `closeDistance`
    /// bits of, one of the new photo's for the features to be worth matching: the rule's
    /// `minimumInliers` (at least one), the matches the features need to decide at all.
    public let minimumSharedFeatures: Int
    /// Per chunk position, 4,096 bits: bit `fold(value)` is set when some descriptor of the new photo
    /// takes `value` there (a set bit may be another value with the same fold; the table decides).
    private let bitmap: [UInt64]
    /// Per chunk position, `slotsPerPosition` slots of `value << 8 | descriptor`, `emptySlot` where
    /// none: each descriptor of the new photo in the first free slot from its value's home slot on.
    private let slots: [UInt32]

    /// Chunks a 256-bit descriptor is cut into.
    static let chunks = 16
    /// Bit distance within which two descriptors sharing a chunk count as shared (of 256 bits;
    /// the matcher pairs up to 64, but a copy's descriptors are closer, another photo's seldom).
    public static let closeDistance = 40
    /// Bits of a chunk's value the bitmap keeps (its fold).
    private static let foldBits = 12
    /// Table slots for one chunk position: twice the most descriptors a fingerprint keeps, so a
    /// probe for a value the new photo lacks ends at an empty slot after a step or two.
    private static let slotsPerPosition = 256
    /// A slot no descriptor holds (a descriptor index is below 128, so never 0xFF).
    private static let emptySlot = UInt32.max

    /// The screen of the new photo `fingerprint` under `rule`.
    public init(of fingerprint: PhotoFingerprint, rule: DuplicateRule = .default) {
        self.fingerprint = fingerprint
        self.rule = rule
        minimumSharedFeatures = max(1, rule.minimumInliers)
        // The slot's 8-bit index, the 128-bit set of descriptors measured and a table never more
        // than half full (so every probe ends) all rest on this.
        precondition(PhotoFingerprint.keptKeypoints <= min(128, Self.slotsPerPosition / 2), "a fingerprint keeps more descriptors than the screen indexes")
        var bitmap = [UInt64](repeating: 0, count: Self.chunks << (Self.foldBits - 6))
        var slots = [UInt32](repeating: Self.emptySlot, count: Self.chunks * Self.slotsPerPosition)
        let words = fingerprint.features.words
        // A fingerprint keeps at most 128 keypoints (parsing refuses more): a descriptor's index
        // fits the slot's 8 bits and the 128-bit set of those already measured, and a position's
        // table is never more than half full.
        let described = min(words.count / 4, PhotoFingerprint.keptKeypoints)
        for descriptor in 0..<described {
            for position in 0..<Self.chunks {
                let value = Self.chunk(words, descriptor, position)
                let fold = Self.fold(value)
                bitmap[position << (Self.foldBits - 6) | fold >> 6] |= 1 << UInt64(fold & 63)
                var slot = Self.home(value)
                while slots[position * Self.slotsPerPosition + slot] != Self.emptySlot { slot = (slot + 1) & (Self.slotsPerPosition - 1) }
                slots[position * Self.slotsPerPosition + slot] = UInt32(value) << 8 | UInt32(descriptor)
            }
        }
        self.bitmap = bitmap
        self.slots = slots
    }

    /// Whether `earlier` could be the new photo under the rule: its hash is within the rule's
    /// distance, or enough of its descriptors share a chunk with the new photo's (`sharedFeatures`).
    /// A photo this refuses is not a duplicate by the rule unless its copy's matches are all far
    /// apart (what `tune --check duplicates` counts).
    public func admits(_ earlier: PhotoFingerprint) -> Bool {
        earlier.distance(to: fingerprint) <= rule.maximumDistance || sharedFeatures(with: earlier, upTo: minimumSharedFeatures) >= minimumSharedFeatures
    }

    /// How many of `earlier`'s descriptors share a chunk with one of the new photo's and are within
    /// `closeDistance` bits of it, counted up to `limit`.
    public func sharedFeatures(with earlier: PhotoFingerprint, upTo limit: Int = .max) -> Int {
        let words = earlier.features.words, mine = fingerprint.features.words
        var shared = 0
        return bitmap.withUnsafeBufferPointer { bits in
            slots.withUnsafeBufferPointer { table in
                words.withUnsafeBufferPointer { theirs in
                    mine.withUnsafeBufferPointer { ours in
                        for descriptor in 0..<(theirs.count / 4) {
                            // The new photo's descriptors already measured against this one (128 at most).
                            var seen: (UInt64, UInt64) = (0, 0)
                            search: for position in 0..<Self.chunks {
                                let value = Int(truncatingIfNeeded: theirs[4 * descriptor + position >> 2] >> UInt64(16 * (position & 3))) & 0xFFFF
                                let fold = Self.fold(value)
                                guard bits[position << (Self.foldBits - 6) | fold >> 6] & (1 << UInt64(fold & 63)) != 0 else { continue }
                                var slot = Self.home(value)
                                while true {
                                    let entry = table[position * Self.slotsPerPosition + slot]
                                    if entry == Self.emptySlot { break }
                                    slot = (slot + 1) & (Self.slotsPerPosition - 1)
                                    guard Int(entry >> 8) == value else { continue }
                                    let other = Int(entry & 0xFF)
                                    let mask: UInt64 = 1 << UInt64(other & 63)
                                    if other < 64 { if seen.0 & mask != 0 { continue }; seen.0 |= mask } else { if seen.1 & mask != 0 { continue }; seen.1 |= mask }
                                    if Self.distance(theirs, descriptor, ours, other) <= Self.closeDistance {
                                        shared += 1
                                        break search
                                    }
                                }
                            }
                            if shared >= limit { break }
                        }
                        return shared
                    }
                }
            }
        }
    }

    /// The earliest of `photos` (oldest first) that is the new photo under the rule, comparing in
    /// full only those the screen admits; with how many were compared in full.
    public func earliestMatch<Photos: Sequence>(among photos: Photos, fingerprint: (Photos.Element) -> PhotoFingerprint) -> (match: Photos.Element?, compared: Int) {
        var compared = 0
        for photo in photos {
            let earlier = fingerprint(photo)
            guard admits(earlier) else { continue }
            compared += 1
            if earlier.matches(self.fingerprint, rule: rule) { return (photo, compared) }
        }
        return (nil, compared)
    }

    /// The 16 bits at `position` of descriptor `descriptor` in `words` (four words a descriptor).
    @inline(__always)
    private static func chunk(_ words: [UInt64], _ descriptor: Int, _ position: Int) -> Int {
        Int(truncatingIfNeeded: words[4 * descriptor + position >> 2] >> UInt64(16 * (position & 3))) & 0xFFFF
    }

    /// A chunk's value folded to `foldBits` bits: its upper bits mixed into the lower (the values
    /// are descriptor bits, near uniform, so any fold spreads them).
    @inline(__always)
    private static func fold(_ value: Int) -> Int {
        (value ^ value >> foldBits) & (1 << foldBits - 1)
    }

    /// The table slot a chunk's value is looked for from: a multiplicative hash of the value.
    @inline(__always)
    private static func home(_ value: Int) -> Int {
        Int((UInt32(truncatingIfNeeded: value) &* 0x9E37_79B1) >> 24)
    }

    /// The bits by which descriptor `a` of `first` and `b` of `second` differ.
    @inline(__always)
    private static func distance(_ first: UnsafeBufferPointer<UInt64>, _ a: Int, _ second: UnsafeBufferPointer<UInt64>, _ b: Int) -> Int {
        (first[4 * a] ^ second[4 * b]).nonzeroBitCount + (first[4 * a + 1] ^ second[4 * b + 1]).nonzeroBitCount
            + (first[4 * a + 2] ^ second[4 * b + 2]).nonzeroBitCount + (first[4 * a + 3] ^ second[4 * b + 3]).nonzeroBitCount
    }
}
