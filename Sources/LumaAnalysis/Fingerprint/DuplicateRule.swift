/// When two photos are one photo. When the local features align them (at least `minimumInliers`
/// matches explained by one crop, resize or turn), the thumbnails' fine detail then decides: a
/// copy correlates at least `minimumCorrelation`, another shot from nearly the same spot does not
/// (parallax, a moved chair). When they cannot be aligned (a plain or small picture), the global
/// hashes decide, within `maximumDistance` bits, but only between two pictures that both have
/// `minimumDetail` cells of fine detail: the hash of a flat picture is the sign of rounding noise,
/// so a flat grey photo would otherwise be the copy of any photo whose coarse content is as flat
/// (a finely striped one).
public struct DuplicateRule: Sendable, Equatable, Hashable, Codable {
    /// Differing hash bits up to which two photos the features cannot align are one photo (`duplicates.max_distance`).
    public var maximumDistance: Int
    /// Feature matches one transform must explain to align two photos (`duplicates.min_matches`).
    public var minimumInliers: Int
    /// The aligned thumbnails' detail correlation a copy reaches (`duplicates.min_correlation`).
    public var minimumCorrelation: Double

    /// A rule from its thresholds.
    public init(maximumDistance: Int, minimumInliers: Int, minimumCorrelation: Double) {
        self.maximumDistance = maximumDistance
        self.minimumInliers = minimumInliers
        self.minimumCorrelation = minimumCorrelation
    }

    /// The shipped rule, chosen by `tune --check duplicates` on the labelled pairs (testdata/DUPLICATES.md).
    public static let `default` = DuplicateRule(maximumDistance: 8, minimumInliers: 4, minimumCorrelation: 0.44)

    /// The thumbnail cells of strong fine detail (`PlaneThumbnail.detailedCells`) each photo needs
    /// before its hash is evidence: half a percent of a whole thumbnail's 12,288 cells. A flat
    /// picture has 0; the plainest photos measured have far more (by a numpy model of the coding:
    /// white-walled rooms in `rooms/` about 1,400, a 400 px motion-blurred clock about 400, at a
    /// quarter of its size 180). Not
    /// a setting: below it the hash bits are noise, whatever the thresholds.
    public static let minimumDetail = 64

    /// Whether `evidence` makes two photos one photo.
    public func isDuplicate(_ evidence: DuplicateEvidence) -> Bool {
        evidence.inliers >= minimumInliers ? evidence.correlation >= minimumCorrelation : hashDecides(evidence.hashDistance, detail: evidence.detail)
    }

    /// Whether the hashes make two photos one photo, when the features cannot align them: within
    /// `maximumDistance` bits, and both photos with `minimumDetail` detailed cells (`detail` the fewer).
    public func hashDecides(_ hashDistance: Int, detail: Int) -> Bool {
        detail >= Self.minimumDetail && hashDistance <= maximumDistance
    }
}
