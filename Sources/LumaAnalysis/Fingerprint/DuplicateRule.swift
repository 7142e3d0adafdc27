/// When two photos are one photo: their global hashes are within `maximumDistance` bits, or their
/// local features agree on one similarity transform (a crop, a resize or a turn of the same pixels)
/// with at least `minimumInliers` matches making at least `minimumInlierShare` of all matches.
public struct DuplicateRule: Sendable, Equatable, Hashable {
    /// Differing hash bits up to which two photos are one photo (`duplicates.max_distance`).
    public var maximumDistance: Int
    /// Feature matches one transform must explain (`duplicates.min_matches`).
    public var minimumInliers: Int
    /// The share of all matches they must make (`duplicates.min_match_share`).
    public var minimumInlierShare: Double

    /// A rule from its thresholds.
    public init(maximumDistance: Int, minimumInliers: Int, minimumInlierShare: Double) {
        self.maximumDistance = maximumDistance
        self.minimumInliers = minimumInliers
        self.minimumInlierShare = minimumInlierShare
    }

    /// The shipped rule, chosen by `tune --check duplicates` on the labelled pairs (testdata/DUPLICATES.md).
    public static let `default` = DuplicateRule(maximumDistance: 2, minimumInliers: 6, minimumInlierShare: 0.6)

    /// Whether `evidence` makes two photos one photo.
    public func isDuplicate(_ evidence: DuplicateEvidence) -> Bool {
        evidence.hashDistance <= maximumDistance || featuresAgree(evidence)
    }

    /// Whether `first` and `second` are one photo; the features are compared only when the hashes differ.
    public func isDuplicate(_ first: PhotoFingerprint, _ second: PhotoFingerprint) -> Bool {
        first.distance(to: second) <= maximumDistance || featuresAgree(first.evidence(against: second))
    }

    /// Whether the feature part of the rule holds.
    private func featuresAgree(_ evidence: DuplicateEvidence) -> Bool {
        evidence.inliers >= minimumInliers && evidence.inlierShare >= minimumInlierShare
    }
}
