import LumaAnalysis

extension PhotoFingerprint {
    /// What keeping this fingerprint parsed costs, in bytes: its keypoints (two Float coordinates
    /// and a 32-byte descriptor each), its thumbnail's pixels, and the arrays' and hashes' overhead.
    public var memoryBytes: Int {
        256 + features.count * (4 + 4 + 32) + thumbnail.width * thumbnail.height
    }
}
