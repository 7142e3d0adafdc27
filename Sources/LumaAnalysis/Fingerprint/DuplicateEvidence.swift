/// What two fingerprints have in common: the global hash distance, how well their local features
/// agree, and how alike their thumbnails' fine detail is once the features have aligned them.
public struct DuplicateEvidence: Sendable, Equatable {
    /// The fewest differing hash bits over the four rotations (0 to 64).
    public let hashDistance: Int
    /// Mutual feature matches that one similarity transform (scale, rotation, shift) explains.
    public let inliers: Int
    /// Those inliers as a share of all mutual matches (0 when there are fewer than three).
    public let inlierShare: Double
    /// The correlation (-1 to 1) of the thumbnails' fine detail under that transform; 0 without one.
    public let correlation: Double
    /// The detail of the plainer photo: the fewer of the two thumbnails' `detailedCells`. A hash
    /// of a picture without detail is noise, so it is no evidence of a copy.
    public let detail: Int

    /// Evidence from its parts, for tests and tools; `detail` unknown counts as plenty.
    public init(hashDistance: Int, inliers: Int, inlierShare: Double = 0, correlation: Double, detail: Int = .max) {
        self.hashDistance = hashDistance
        self.inliers = inliers
        self.inlierShare = inlierShare
        self.correlation = correlation
        self.detail = detail
    }
}
