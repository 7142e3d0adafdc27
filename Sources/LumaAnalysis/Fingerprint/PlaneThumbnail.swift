import BlurMetrics

/// The features' detection plane box-averaged by 4 (128 px on the shortest side), kept in the
/// fingerprint so that two photos the features align can be compared pixel by pixel: after the
/// alignment a copy's fine detail correlates almost perfectly, another shot's does not (parallax,
/// occlusion, a moved chair).
public struct PlaneThumbnail: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    private let pixels: [UInt8]

    /// The box factor from the detection plane.
    static let factor = 4
    private static let magic: (UInt8, UInt8) = (0x54, 0x48)
    private static let version: UInt8 = 1
    private static let headerSize = 7
    /// Correlations over fewer overlapping pixels than this are 0: too little to tell.
    static let minimumOverlap = 30
    /// The longest side a thumbnail has: the detection plane's longest side box-averaged by `factor`.
    public static let maximumLongSide = LocalFeatures.maximumDetectionLongSide / factor
    /// The longest its shortest side is: the detection plane's shortest side box-averaged by `factor`.
    public static let maximumShortSide = LocalFeatures.detectionSide / factor
    /// The most bytes `bytes` is: the header and a thumbnail of the largest sides.
    public static let maximumByteCount = headerSize + maximumLongSide * maximumShortSide

    /// The thumbnail of a detection plane (`LocalFeatures.detectionPlane(of:)`); empty without one.
    public init(detectionPlane: LumaPlane?) {
        guard let plane = detectionPlane, plane.width >= Self.factor, plane.height >= Self.factor else {
            self.init(width: 0, height: 0, pixels: [])
            return
        }
        // `factor` is 4: the box means are the quarter plane's, rounded the same way.
        let box = QuarterPlane.of(plane)
        self.init(width: box.width, height: box.height, pixels: box.pixels)
    }

    private init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Compact form: "TH", version 1, UInt16 width and height (little-endian), then the pixels row by row.
    public var bytes: [UInt8] {
        // The sides are at most `maximumLongSide`, well within 16 bits.
        [Self.magic.0, Self.magic.1, Self.version, UInt8(truncatingIfNeeded: width), UInt8(truncatingIfNeeded: width >> 8),
         UInt8(truncatingIfNeeded: height), UInt8(truncatingIfNeeded: height >> 8)] + pixels
    }

    /// The thumbnail `bytes` encodes; nil when the header or length is wrong or a side is longer
    /// than a detection plane's thumbnail can be (`maximumLongSide`, `maximumShortSide`).
    public init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count <= Self.maximumByteCount else { return nil }
        let b = Array(bytes)
        guard b.count >= Self.headerSize, b[0] == Self.magic.0, b[1] == Self.magic.1, b[2] == Self.version else { return nil }
        let width = Int(b[3]) | Int(b[4]) << 8, height = Int(b[5]) | Int(b[6]) << 8
        guard max(width, height) <= Self.maximumLongSide, min(width, height) <= Self.maximumShortSide,
              b.count == Self.headerSize + width * height else { return nil }
        self.init(width: width, height: height, pixels: Array(b[Self.headerSize...]))
    }

    /// The correlation (-1 to 1) of this thumbnail's fine detail (each pixel less its 3x3 mean)
    /// with `other`'s, where `transform` takes this photo's detection plane onto `other`'s: the
    /// smaller picture is sampled from the larger (bilinearly), over the pixels both show, two
    /// pixels in from every edge. 0 when they overlap in fewer than `minimumOverlap` pixels.
    func correlation(with other: PlaneThumbnail, transform: Similarity) -> Double {
        guard width >= 5, height >= 5, other.width >= 5, other.height >= 5, transform.scale > 1e-6 else { return 0 }
        // Thumbnail u is detection-plane 4u + 1.5, so u_other = s·u + (t/4 − 0.375(1+i) + 0.375·s(1+i)).
        let onto = Similarity(sr: transform.sr, si: transform.si,
                              tx: transform.tx / 4 - 0.375 + 0.375 * (transform.sr - transform.si),
                              ty: transform.ty / 4 - 0.375 + 0.375 * (transform.sr + transform.si))
        let shrinks = transform.scale <= 1
        let destination = shrinks ? other : self, source = shrinks ? self : other
        let destinationDetail = destination.detail(), sourceDetail = source.detail()
        var n = 0.0, su = 0.0, sv = 0.0, suu = 0.0, svv = 0.0, suv = 0.0
        let maxX = Double(source.width - 3), maxY = Double(source.height - 3)
        for y in 2...(destination.height - 3) {
            for x in 2...(destination.width - 3) {
                let point = shrinks ? onto.inverse(Double(x), Double(y)) : onto.apply(Double(x), Double(y))
                guard point.x >= 2, point.x <= maxX, point.y >= 2, point.y <= maxY else { continue }
                let x0 = Int(point.x), y0 = Int(point.y)
                let fx = point.x - Double(x0), fy = point.y - Double(y0)
                let top = y0 * source.width + x0, bottom = top + source.width
                let v = (sourceDetail[top] * (1 - fx) + sourceDetail[top + 1] * fx) * (1 - fy)
                    + (sourceDetail[bottom] * (1 - fx) + sourceDetail[bottom + 1] * fx) * fy
                let u = destinationDetail[y * destination.width + x]
                n += 1; su += u; sv += v; suu += u * u; svv += v * v; suv += u * v
            }
        }
        guard Int(n) >= Self.minimumOverlap else { return 0 }
        let covariance = suv - su * sv / n, uu = suu - su * su / n, vv = svv - sv * sv / n
        return covariance / (uu * vv + 1e-12).squareRoot()
    }

    /// Each pixel less the mean of its 3x3 neighbourhood, the border mirrored without repeating the edge (OpenCV's REFLECT_101).
    private func detail() -> [Double] {
        func reflect(_ i: Int, _ n: Int) -> Int { i < 0 ? -i : i >= n ? 2 * n - 2 - i : i }
        var out = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0
                for dy in -1...1 {
                    let row = reflect(y + dy, height) * width
                    for dx in -1...1 { sum += Int(pixels[row + reflect(x + dx, width)]) }
                }
                out[y * width + x] = Double(pixels[y * width + x]) - Double(sum) / 9
            }
        }
        return out
    }
}
