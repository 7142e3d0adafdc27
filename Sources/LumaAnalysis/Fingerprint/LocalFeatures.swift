import BlurMetrics

/// Keypoints and binary descriptors of a photo's analysis plane, for telling a copy of a photo from another shot.
public struct LocalFeatures: Sendable, Equatable {
    // Positions in pixels of the halved plane, already quantised to the stored fixed point so a byte round trip is exact.
    private var xs: [Float]
    private var ys: [Float]
    // Four 64-bit words per keypoint; byte k of the descriptor is bits 8k...8k+7 (little-endian words).
    private var words: [UInt64]
    // Fractional bits of the stored UInt16 coordinates.
    private var fractionBits: Int

    private static let magic: (UInt8, UInt8) = (0x4C, 0x46)
    private static let version: UInt8 = 1
    private static let headerSize = 6
    private static let recordSize = 4 + 32

    /// Features of the full analysis plane (shortest side ~1024), detected on the plane halved with 2x2 box means.
    public init(of plane: LumaPlane) {
        guard let half = PlaneResampling.halved(plane) else {
            self.init(xs: [], ys: [], words: [], fractionBits: 0)
            return
        }
        let found = OrbExtractor.extract(from: half)
        let largest = max(found.xs.max() ?? 0, found.ys.max() ?? 0)
        var bits = 8
        while bits > 0 && (Double(largest) * Double(1 << bits)).rounded() > 65535 { bits -= 1 }
        let unit = Float(1 << bits)
        let q = { (v: Float) -> Float in Float(UInt16(clamping: Int((v * unit).rounded()))) / unit }
        self.init(xs: found.xs.map(q), ys: found.ys.map(q), words: found.words, fractionBits: bits)
    }

    private init(xs: [Float], ys: [Float], words: [UInt64], fractionBits: Int) {
        self.xs = xs; self.ys = ys; self.words = words; self.fractionBits = fractionBits
    }

    /// Number of keypoints.
    public var count: Int { xs.count }

    /// Compact form: "LF", version 1, fractional bits, UInt16 count, then per keypoint x and y as little-endian UInt16 fixed point, then the 32-byte descriptors.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.headerSize + count * Self.recordSize)
        out += [Self.magic.0, Self.magic.1, Self.version, UInt8(fractionBits), UInt8(count & 0xFF), UInt8(count >> 8)]
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

    /// Features read back from `bytes`; nil when the header or length is wrong.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize, bytes[0] == Self.magic.0, bytes[1] == Self.magic.1,
              bytes[2] == Self.version, bytes[3] <= 8 else { return nil }
        let n = Int(bytes[4]) | Int(bytes[5]) << 8
        guard bytes.count == Self.headerSize + n * Self.recordSize else { return nil }
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
        let pairs = FeatureMatcher.mutualMatches(words, count, other.words, other.count)
        guard pairs.count >= 3 else { return (0, 0) }
        let ax = pairs.map { Double(xs[$0.0]) }, ay = pairs.map { Double(ys[$0.0]) }
        let bx = pairs.map { Double(other.xs[$0.1]) }, by = pairs.map { Double(other.ys[$0.1]) }
        let inliers = FeatureMatcher.ransacInliers(ax: ax, ay: ay, bx: bx, by: by)
        return (inliers, Double(inliers) / Double(pairs.count))
    }
}
