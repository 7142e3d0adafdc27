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
/// A pure value built once per new photo: 128 KiB of bitmap (one bit per value of each chunk
/// position) and 16 KiB of sorted keys, whatever the photo. Screening one earlier photo tests its
/// 2,048 chunks against the bitmap and computes at most one full distance per descriptor pair that
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
    /// Which values each chunk position takes among the new photo's descriptors: 16 positions of
    /// 65,536 bits.
    private let bitmap: [UInt64]
    /// (position << 16 | value) << 8 | descriptor, sorted: the new photo's descriptors by chunk.
    private let keys: [UInt64]

    /// Chunks a 256-bit descriptor is cut into.
    static let chunks = 16
    /// Bit distance within which two descriptors sharing a chunk count as shared (of 256 bits;
    /// the matcher pairs up to 64, but a copy's descriptors are closer, another photo's seldom).
    public static let closeDistance = 40

    /// The screen of the new photo `fingerprint` under `rule`.
    public init(of fingerprint: PhotoFingerprint, rule: DuplicateRule = .default) {
        self.fingerprint = fingerprint
        self.rule = rule
        minimumSharedFeatures = max(1, rule.minimumInliers)
        var bitmap = [UInt64](repeating: 0, count: Self.chunks << 10)
        var keys: [UInt64] = []
        let words = fingerprint.features.words
        // A fingerprint keeps at most 128 keypoints (parsing refuses more): a descriptor's index
        // fits the key's 8 bits and the 128-bit set of those already measured.
        let described = min(words.count / 4, PhotoFingerprint.keptKeypoints)
        keys.reserveCapacity(described * Self.chunks)
        for descriptor in 0..<described {
            for position in 0..<Self.chunks {
                let value = Self.chunk(words, descriptor, position)
                let bit = position << 16 | value
                bitmap[bit >> 6] |= 1 << UInt64(bit & 63)
                keys.append(UInt64(bit) << 8 | UInt64(descriptor))
            }
        }
        keys.sort()
        self.bitmap = bitmap
        self.keys = keys
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
            for descriptor in 0..<(words.count / 4) {
                // The new photo's descriptors already measured against this one (128 at most).
                var seen: (UInt64, UInt64) = (0, 0)
                search: for position in 0..<Self.chunks {
                    let bit = position << 16 | Self.chunk(words, descriptor, position)
                    guard bits[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { continue }
                    var index = lowerBound(UInt64(bit) << 8)
                    while index < keys.count, keys[index] >> 8 == UInt64(bit) {
                        let other = Int(keys[index] & 0xFF)
                        index += 1
                        let mask: UInt64 = 1 << UInt64(other & 63)
                        if other < 64 { if seen.0 & mask != 0 { continue }; seen.0 |= mask } else { if seen.1 & mask != 0 { continue }; seen.1 |= mask }
                        if Self.distance(words, descriptor, mine, other) <= Self.closeDistance {
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

    /// The bits by which descriptor `a` of `first` and `b` of `second` differ.
    @inline(__always)
    private static func distance(_ first: [UInt64], _ a: Int, _ second: [UInt64], _ b: Int) -> Int {
        (first[4 * a] ^ second[4 * b]).nonzeroBitCount + (first[4 * a + 1] ^ second[4 * b + 1]).nonzeroBitCount
            + (first[4 * a + 2] ^ second[4 * b + 2]).nonzeroBitCount + (first[4 * a + 3] ^ second[4 * b + 3]).nonzeroBitCount
    }

    /// The first index of `keys` not below `key`.
    private func lowerBound(_ key: UInt64) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
