extension PhotoFingerprint {
    /// Bytes measuring the fingerprint of a `planeWidth` x `planeHeight` analysis plane holds at
    /// most beside the plane: the halved and quarter planes it reads, the halvings on the way to the
    /// detection plane, the detection plane with the ORB pyramid's two smaller levels and the blur
    /// the descriptors read (each as large as the level they are of), and the thumbnail, with margin.
    public static func estimatedBytes(planeWidth: Int, planeHeight: Int) -> Int {
        let planePixels = planeWidth * planeHeight
        var halving = (width: planeWidth, height: planeHeight)
        var reduced = planePixels / 16
        if min(planeWidth, planeHeight) >= 2 * LocalFeatures.detectionSide {
            halving = (planeWidth / 2, planeHeight / 2)
            reduced += halving.width * halving.height
        }
        // Each further halving is a quarter of the plane before it: together at most a third of the first.
        reduced += halving.width * halving.height / 3
        let detection = LocalFeatures.detectionSize(width: max(halving.width, 1), height: max(halving.height, 1))
            .map { $0.width * $0.height } ?? 0
        // The level itself, the two smaller levels (1/1.3² and 1/1.3⁴ of it), the blur buffer as large
        // as the first level, the thumbnail (a sixteenth), and a fifth more for rows and corner lists.
        let pyramid = detection * 37 / 10
        return reduced + pyramid + 4 * max(planeWidth, planeHeight) + (64 << 10)
    }

    /// What keeping this fingerprint parsed costs, in bytes: its keypoints (two Float coordinates
    /// and a 32-byte descriptor each), its thumbnail's pixels, and the arrays' and hashes' overhead.
    public var memoryBytes: Int {
        256 + features.count * (4 + 4 + 32) + thumbnail.width * thumbnail.height
    }
}
