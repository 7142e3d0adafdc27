import BlurMetrics

/// Keypoints and binary descriptors of a photo's analysis plane, for telling a copy of a photo from another shot.
public struct LocalFeatures: Sendable, Equatable {
    // Positions in pixels of the halved plane, already quantised to the stored fixed point so a byte round trip is exact.
    private var xs: [Float]
    private var ys: [Float]
    /// Four 64-bit words per keypoint; byte k of the descriptor is bits 8k...8k+7 (little-endian words).
    private(set) var words: [UInt64]
    // Fractional bits of the stored UInt16 coordinates.
    private var fractionBits: Int

    private static let magic: (UInt8, UInt8) = (0x4C, 0x46)
    private static let version: UInt8 = 2
    private static let headerSize = 6
    private static let recordSize = 4 + 32

    /// The shortest side features are detected at, whatever the plane's size, so two copies of a photo at different sizes are compared at one scale.
    public static let detectionSide = 512
    /// The longest side of the detection plane: a plane longer than 8:1 is brought to this long side
    /// instead of `detectionSide` short, so a narrow strip's fingerprint costs no more than a panorama's.
    public static let maximumDetectionLongSide = 4096
    /// The shortest side of a plane features are detected on; a narrower plane has none (the hash decides).
    static let minimumDetectionSide = 16
    /// The most keypoints features hold: the 128 of the 256 found that `OrbExtractor` keeps,
    /// spread over the frame; parsing refuses more.
    public static let maximumCount = 128

    /// Features of an analysis plane, detected on its `detectionPlane(of:)`.
    public init(of plane: LumaPlane) {
        self.init(detectionPlane: Self.detectionPlane(of: plane))
    }

    /// The plane features are detected on: the analysis plane brought to a shortest side of
    /// `detectionSide`, halved with 2x2 box means while its shortest side is twice that or more (a
    /// 1024 plane once), then resized bilinearly when still another size (a small photo's plane is
    /// enlarged). A plane more than 8:1 is brought to a longest side of `maximumDetectionLongSide`
    /// instead (halved first while its longest side is twice that or more). Nil when the plane's
    /// shortest side is under 16, or would be after that.
    public static func detectionPlane(of plane: LumaPlane) -> LumaPlane? {
        detectionPlane(of: plane, path: .best)
    }

    /// `detectionPlane(of:)`, its resize by the loops of `path` (the same plane).
    static func detectionPlane(of plane: LumaPlane, path: KernelPath) -> LumaPlane? {
        var working = plane
        while min(working.width, working.height) >= 2 * detectionSide, let half = PlaneResampling.halved(working) { working = half }
        let side = min(working.width, working.height)
        guard side >= minimumDetectionSide else { return nil }
        guard let size = detectionSize(width: working.width, height: working.height) else { return nil }
        // Only a plane over 8:1 reaches here with a long side of twice the cap: halving first keeps
        // the bilinear step from skipping most of its rows.
        while max(working.width, working.height) >= 2 * maximumDetectionLongSide,
              working.width / 2 >= size.width, working.height / 2 >= size.height,
              let half = PlaneResampling.halved(working) { working = half }
        if (working.width, working.height) != size {
            working = PlaneResampling.resizedBilinear(working, width: size.width, height: size.height, path: path)
        }
        return working
    }

    /// The detection plane's size for a (halved) plane of `width` x `height` whose shortest side is
    /// at least 16: `detectionSide` on the shortest side, or `maximumDetectionLongSide` on the
    /// longest when that is the smaller plane; nil when the shortest side would then be under 16.
    static func detectionSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        let side = min(width, height), long = max(width, height)
        let scale = Double(detectionSide) / Double(side)
        var size = (width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded())))
        if max(size.width, size.height) > maximumDetectionLongSide {
            let capped = Double(maximumDetectionLongSide) / Double(long)
            size = width >= height
                ? (maximumDetectionLongSide, Int((Double(height) * capped).rounded()))
                : (Int((Double(width) * capped).rounded()), maximumDetectionLongSide)
        }
        return min(size.width, size.height) >= minimumDetectionSide ? size : nil
    }

    /// Features detected on `detectionPlane` (none without one): the `maximumCount` keypoints of
    /// the 256 (more with ties) `OrbExtractor` finds that it keeps spread over the frame.
    public init(detectionPlane: LumaPlane?) {
        self.init(detectionPlane: detectionPlane, path: .best)
    }

    /// `init(detectionPlane:)` by the loops of `path` (the same features).
    init(detectionPlane: LumaPlane?, path: KernelPath) {
        guard let working = detectionPlane else {
            self.init(xs: [], ys: [], words: [], fractionBits: 0)
            return
        }
        let found = OrbExtractor.extract(from: working, keeping: Self.maximumCount, path: path)
        self.init(xs: found.xs, ys: found.ys, words: found.words, fractionBits: found.fractionBits)
    }

    /// The fractional bits positions up to `largest` are stored with: the most, up to 8, that keep
    /// `largest` within a UInt16.
    static func fractionBits(largest: Float) -> Int {
        var bits = 8
        while bits > 0 && (Double(largest) * Double(1 << bits)).rounded() > 65535 { bits -= 1 }
        return bits
    }

    /// `value` as stored with `fractionBits` fractional bits (rounded, clamped to a UInt16), so a
    /// byte round trip is exact.
    static func quantized(_ value: Float, fractionBits: Int) -> Float {
        let unit = Float(1 << fractionBits)
        return Float(UInt16(clamping: Int((value * unit).rounded()))) / unit
    }

    private init(xs: [Float], ys: [Float], words: [UInt64], fractionBits: Int) {
        self.xs = xs; self.ys = ys; self.words = words; self.fractionBits = fractionBits
    }

    /// Number of keypoints.
    public var count: Int { xs.count }

    /// Compact form: "LF", version 2 (keypoints in the extractor's interleaved order), fractional bits, UInt16 count, then per keypoint x and y as little-endian UInt16 fixed point, then the 32-byte descriptors.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.headerSize + count * Self.recordSize)
        out += [Self.magic.0, Self.magic.1, Self.version, UInt8(fractionBits), UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8)]
        let unit = Float(1 << fractionBits)
        for k in 0..<count {
            for v in [xs[k], ys[k]] {
                let u = UInt16(v * unit)
                out.append(UInt8(u & 0xFF)); out.append(UInt8(u >> 8))
            }
        }
        for word in words {
            for b in 0..<8 { out.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(b)))) }
        }
        return out
    }

    /// The most bytes `bytes` is: the header and `maximumCount` keypoints.
    public static let maximumByteCount = byteCount(keypoints: maximumCount)

    /// The bytes `bytes` is with `keypoints` keypoints.
    public static func byteCount(keypoints: Int) -> Int { headerSize + keypoints * recordSize }

    /// Features read back from `bytes`; nil when the header or length is wrong or it holds more
    /// keypoints than `maximumCount`.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize, bytes[0] == Self.magic.0, bytes[1] == Self.magic.1,
              bytes[2] == Self.version, bytes[3] <= 8 else { return nil }
        let n = Int(bytes[4]) | Int(bytes[5]) << 8
        // More keypoints than the extractor keeps would make every comparison with them cost more than any real pair.
        guard n <= Self.maximumCount, bytes.count == Self.headerSize + n * Self.recordSize else { return nil }
        let bits = Int(bytes[3]), unit = Float(1 << bits)
        var xs = [Float](), ys = [Float](), words = [UInt64]()
        xs.reserveCapacity(n); ys.reserveCapacity(n); words.reserveCapacity(4 * n)
        var p = Self.headerSize
        for _ in 0..<n {
            xs.append(Float(UInt16(bytes[p]) | UInt16(bytes[p + 1]) << 8) / unit)
            ys.append(Float(UInt16(bytes[p + 2]) | UInt16(bytes[p + 3]) << 8) / unit)
            p += 4
        }
        for _ in 0..<(4 * n) {
            var word: UInt64 = 0
            for b in 0..<8 { word |= UInt64(bytes[p + b]) << (8 * UInt64(b)) }
            words.append(word)
            p += 8
        }
        self.init(xs: xs, ys: ys, words: words, fractionBits: bits)
    }

    /// How well `other` (a new photo) matches these (stored) features: the RANSAC similarity inlier count L of the mutual matches and its share F of them.
    public func agreement(with other: LocalFeatures) -> (inliers: Int, share: Double) {
        let found = alignment(with: other)
        return (found.inliers, found.share)
    }

    /// The agreement with `other` and the similarity from these features' detection plane to
    /// `other`'s, refitted by least squares to its inliers (nil below three matches).
    /// Below `needing` mutual matches (at most that many inliers) it stops there, answering none.
    func alignment(with other: LocalFeatures, needing: Int = 3) -> (inliers: Int, share: Double, transform: Similarity?) {
        let pairs = FeatureMatcher.mutualMatches(words, count, other.words, other.count)
        guard pairs.count >= max(3, needing) else { return (0, 0, nil) }
        let ax = pairs.map { Double(xs[$0.0]) }, ay = pairs.map { Double(ys[$0.0]) }
        let bx = pairs.map { Double(other.xs[$0.1]) }, by = pairs.map { Double(other.ys[$0.1]) }
        let fit = FeatureMatcher.ransac(ax: ax, ay: ay, bx: bx, by: by)
        let transform = fit.transform.map { FeatureMatcher.refined($0, ax: ax, ay: ay, bx: bx, by: by) }
        return (fit.inliers, Double(fit.inliers) / Double(pairs.count), transform)
    }
}
