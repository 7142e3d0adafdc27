/// When two photos are one photo. When the local features align them (at least `minimumInliers`
/// matches explained by one crop, resize or turn), the thumbnails' fine detail then decides: a
/// copy correlates at least `minimumCorrelation`, another shot from nearly the same spot does not
/// (parallax, a moved chair). When they cannot be aligned (a flat or tiny picture), the global
/// hashes decide, within `maximumDistance` bits.
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

    /// Whether `evidence` makes two photos one photo.
    public func isDuplicate(_ evidence: DuplicateEvidence) -> Bool {
        evidence.inliers >= minimumInliers ? evidence.correlation >= minimumCorrelation : evidence.hashDistance <= maximumDistance
    }
}
