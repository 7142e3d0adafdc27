import BlurMetrics

/// The fine detail of the features' detection plane box-averaged by 4 (128 px on the shortest
/// side), kept in the fingerprint so that two photos the features align can be compared cell by
/// cell: after the alignment a copy's fine detail correlates, another shot's does not (parallax,
/// occlusion, a moved chair). Each cell keeps its detail (its mean less the mean of its 3x3
/// neighbourhood) in two bits, -3, -1, 1 or 3 (split at `detailStep` grey levels), over a central
/// window of at most `maximumCells` cells (the whole of a 4:3 or 3:2 photo's 128 rows, the middle
/// of a longer one), so a thumbnail is at most 3 KB whatever the photo.
public struct PlaneThumbnail: Sendable, Equatable {
    /// Width of the window in cells.
    public let width: Int
    /// Height of the window in cells.
    public let height: Int
    /// The window's first column among the cells of the whole thumbnail.
    public let originX: Int
    /// The window's first row among the cells of the whole thumbnail.
    public let originY: Int
    // Detection-plane columns and rows left out before the first cell, so the cells sit in the
    // middle of the plane and a copy turned a half or a quarter has the same cells.
    private let gridX: Int
    private let gridY: Int
    // The cells' codes (-3, -1, 1, 3) as Int8 bit patterns, row by row.
    private let codes: [UInt8]
    /// The cells whose detail is past `detailStep` either way (coded ±3): how much the picture has
    /// to tell it from another. A flat picture has none, whatever its size.
    public let detailedCells: Int

    /// The box factor from the detection plane.
    static let factor = 4
    /// The detail, in grey levels, at which a cell's code goes from ±1 to ±3.
    static let detailStep = 2.0
    private static let magic: (UInt8, UInt8) = (0x54, 0x48)
    private static let version: UInt8 = 3
    private static let headerSize = 13
    /// Correlations over fewer overlapping cells than this are 0: too little to tell.
    static let minimumOverlap = 30
    /// The longest side a whole thumbnail has: the detection plane's longest side box-averaged by `factor`.
    public static let maximumLongSide = LocalFeatures.maximumDetectionLongSide / factor
    /// The longest its shortest side is: the detection plane's shortest side box-averaged by `factor`.
    public static let maximumShortSide = LocalFeatures.detectionSide / factor
    /// The most cells the window keeps.
    public static let maximumCells = 12_288
    /// The most bytes `bytes` is: the header and `maximumCells` cells of two bits.
    public static let maximumByteCount = headerSize + (maximumCells + 3) / 4

    /// The thumbnail of a detection plane (`LocalFeatures.detectionPlane(of:)`); empty without one.
    public init(detectionPlane: LumaPlane?) {
        // `factor` is 4: the box means are the quarter plane's of the plane less its first gridX
        // columns and gridY rows (a plane of 4 or more a side keeps 4 or more), rounded the same way.
        guard let plane = detectionPlane, plane.width >= Self.factor, plane.height >= Self.factor,
              case let (gridX, gridY) = (plane.width % Self.factor / 2, plane.height % Self.factor / 2),
              let box = QuarterPlane.of(plane, left: gridX, top: gridY) else {
            self.init(width: 0, height: 0, originX: 0, originY: 0, gridX: 0, gridY: 0, codes: [])
            return
        }
        var width = box.width, height = box.height, originX = 0, originY = 0
        if width * height > Self.maximumCells {
            if width >= height {
                width = max(1, Self.maximumCells / height)
                originX = (box.width - width) / 2
            } else {
                height = max(1, Self.maximumCells / width)
                originY = (box.height - height) / 2
            }
        }
        let codes = Self.codes(of: box, columns: originX..<(originX + width), rows: originY..<(originY + height))
        self.init(width: width, height: height, originX: originX, originY: originY, gridX: gridX, gridY: gridY, codes: codes)
    }

    private init(width: Int, height: Int, originX: Int, originY: Int, gridX: Int, gridY: Int, codes: [UInt8]) {
        self.width = width
        self.height = height
        self.originX = originX
        self.originY = originY
        self.gridX = gridX
        self.gridY = gridY
        self.codes = codes
        // ±3 are the bit patterns 3 and 253; ±1 are 1 and 255.
        detailedCells = codes.reduce(0) { $0 + ($1 == 3 || $1 == 253 ? 1 : 0) }
    }

    /// Compact form: "TH", version 3, the grid's offset (two bytes), the window's origin, width and
    /// height (UInt16 each, little-endian), then the codes two bits each (-3, -1, 1, 3 as 0 to 3),
    /// four a byte from its low bits, row by row.
    public var bytes: [UInt8] {
        var out: [UInt8] = [Self.magic.0, Self.magic.1, Self.version, UInt8(gridX), UInt8(gridY)]
        // The sides and origins are at most `maximumLongSide`, well within 16 bits.
        for value in [originX, originY, width, height] {
            out += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        var packed = [UInt8](repeating: 0, count: (codes.count + 3) / 4)
        for (index, code) in codes.enumerated() {
            let level = UInt8((Int(Int8(bitPattern: code)) + 3) / 2)
            packed[index / 4] |= level << (2 * UInt8(index % 4))
        }
        return out + packed
    }

    /// The thumbnail `bytes` encodes; nil when the header or length is wrong, or the window is
    /// larger or further out than a detection plane's thumbnail can be.
    public init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count <= Self.maximumByteCount else { return nil }
        let b = Array(bytes)
        guard b.count >= Self.headerSize, b[0] == Self.magic.0, b[1] == Self.magic.1, b[2] == Self.version,
              b[3] < Self.factor, b[4] < Self.factor else { return nil }
        let word = { (at: Int) in Int(b[at]) | Int(b[at + 1]) << 8 }
        let originX = word(5), originY = word(7), width = word(9), height = word(11)
        // The window cuts the long side only: the other is whole, and a plane's short side.
        let shortSide = originX > 0 ? height : originY > 0 ? width : min(width, height)
        guard originX == 0 || originY == 0, shortSide <= Self.maximumShortSide, width * height <= Self.maximumCells,
              max(originX + width, originY + height) <= Self.maximumLongSide,
              b.count == Self.headerSize + (width * height + 3) / 4 else { return nil }
        var codes = [UInt8](repeating: 0, count: width * height)
        for index in codes.indices {
            let level = Int((b[Self.headerSize + index / 4] >> (2 * UInt8(index % 4))) & 3)
            codes[index] = UInt8(bitPattern: Int8(2 * level - 3))
        }
        self.init(width: width, height: height, originX: originX, originY: originY, gridX: Int(b[3]), gridY: Int(b[4]), codes: codes)
    }

    /// The correlation (-1 to 1) of this thumbnail's coded detail with `other`'s, where
    /// `transform` takes this photo's detection plane onto `other`'s: the smaller picture is
    /// sampled from the larger (bilinearly), over the cells both show, two cells in from every
    /// edge of the windows. 0 when they overlap in fewer than `minimumOverlap` cells.
    func correlation(with other: PlaneThumbnail, transform: Similarity) -> Double {
        guard width >= 5, height >= 5, other.width >= 5, other.height >= 5, transform.scale > 1e-6 else { return 0 }
        // Cell u is detection-plane 4u + c, c = 4·origin + grid + 1.5 (per axis); with d the
        // other's, u_other = s·u + (t + s·c − d)/4 in complex numbers.
        let f = Double(Self.factor), half = (f - 1) / 2
        let cx = f * Double(originX) + Double(gridX) + half, cy = f * Double(originY) + Double(gridY) + half
        let dx = f * Double(other.originX) + Double(other.gridX) + half, dy = f * Double(other.originY) + Double(other.gridY) + half
        let onto = Similarity(sr: transform.sr, si: transform.si,
                              tx: (transform.tx + transform.sr * cx - transform.si * cy - dx) / f,
                              ty: (transform.ty + transform.sr * cy + transform.si * cx - dy) / f)
        let shrinks = onto.scale <= 1
        let destination = shrinks ? other : self, source = shrinks ? self : other
        let destinationDetail = destination.values(), sourceDetail = source.values()
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

    /// The codes as numbers.
    private func values() -> [Double] {
        codes.map { Double(Int8(bitPattern: $0)) }
    }

    /// The code of each cell of `columns` x `rows` of `box`, row by row: its detail (the cell less
    /// the mean of its 3x3 neighbourhood, the border mirrored without repeating the edge, OpenCV's
    /// REFLECT_101) split at 0 and ±`detailStep`. In whole numbers: nine times the detail is
    /// 9 x cell - sum, and `detailStep` (2) is 18 of those (the Double detail, cell - sum / 9,
    /// lands on the same side of 0 and ±2 as the exact one, which is never within 1/9 of them
    /// unless on them).
    private static func codes(of box: LumaPlane, columns: Range<Int>, rows: Range<Int>) -> [UInt8] {
        let width = box.width, height = box.height, step = Int(9 * detailStep)
        @inline(__always) func reflect(_ i: Int, _ n: Int) -> Int { n == 1 ? 0 : i < 0 ? -i : i >= n ? 2 * n - 2 - i : i }
        return box.pixels.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: columns.count * rows.count) { out, initialized in
                let p = pixels.baseAddress!, o = out.baseAddress!
                var index = 0
                /// The code of the cell at column `x` of a row, between columns `left` and `right`.
                @inline(__always) func code(_ above: UnsafePointer<UInt8>, _ here: UnsafePointer<UInt8>, _ below: UnsafePointer<UInt8>,
                                            _ left: Int, _ x: Int, _ right: Int) -> UInt8 {
                    var sum = Int(above[left]) &+ Int(above[x]) &+ Int(above[right])
                    sum &+= Int(here[left]) &+ Int(here[x]) &+ Int(here[right])
                    sum &+= Int(below[left]) &+ Int(below[x]) &+ Int(below[right])
                    let nine = 9 &* Int(here[x]) &- sum
                    return UInt8(bitPattern: nine > step ? 3 : nine > 0 ? 1 : nine > -step ? -1 : -3)
                }
                // The columns with both neighbours inside the box go without the mirroring's tests.
                let inner = max(columns.lowerBound, 1)..<max(max(columns.lowerBound, 1), min(columns.upperBound, width - 1))
                for y in rows {
                    let above = p + reflect(y - 1, height) * width, here = p + y * width, below = p + reflect(y + 1, height) * width
                    for x in columns.lowerBound..<inner.lowerBound {
                        o[index] = code(above, here, below, reflect(x - 1, width), x, reflect(x + 1, width))
                        index &+= 1
                    }
                    for x in inner {
                        o[index] = code(above, here, below, x &- 1, x, x &+ 1)
                        index &+= 1
                    }
                    for x in inner.upperBound..<columns.upperBound {
                        o[index] = code(above, here, below, reflect(x - 1, width), x, reflect(x + 1, width))
                        index &+= 1
                    }
                }
                initialized = index
            }
        }
    }
}
