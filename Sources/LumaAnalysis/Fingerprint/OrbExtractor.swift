import BlurMetrics
#if arch(x86_64)
import FingerprintAVX2
#endif

/// ORB keypoints and rBRIEF descriptors with the parameters of OpenCV's `ORB_create(nfeatures: 256, scaleFactor: 1.3, nlevels: 3, edgeThreshold: 31, patchSize: 31, fastThreshold: 10, scoreType: HARRIS_SCORE)`.
enum OrbExtractor {
    /// Keypoint positions (in the input image's pixels) and their descriptors, four 64-bit words (bits 0...255) each.
    struct Output {
        /// Keypoint columns.
        var xs: [Float] = []
        /// Keypoint rows.
        var ys: [Float] = []
        /// Descriptor words, four per keypoint; bit i of the descriptor is bit i % 64 of word i / 64.
        var words: [UInt64] = []
        /// The fractional bits the positions are stored with (`LocalFeatures.fractionBits(largest:)`).
        var fractionBits = 0
    }

    private static let featureCount = 256
    private static let levelCount = 3
    private static let scaleFactor = 1.3
    private static let edge = 31
    private static let halfPatch = 15
    private static let fastThreshold = 10
    private static let harrisK: Float = 0.04

    // Row half-widths of the radius-15 disc, made symmetric as OpenCV does.
    private static let umax: [Int] = {
        var u = [Int](repeating: 0, count: halfPatch + 2)
        let r = Double(halfPatch)
        let vmax = Int((r * 2.0.squareRoot() / 2 + 1).rounded(.down))
        let vmin = Int((r * 2.0.squareRoot() / 2).rounded(.up))
        for v in 0...vmax { u[v] = Int((r * r - Double(v * v)).squareRoot().rounded(.toNearestOrEven)) }
        var v0 = 0
        var v = halfPatch
        while v >= vmin {
            while u[v0] == u[v0 + 1] { v0 += 1 }
            u[v] = v0
            v0 += 1
            v -= 1
        }
        return u
    }()

    // The farthest a turned pattern point lands from its keypoint, in whole pixels: its longest radius rounded up, and one for the rounding.
    private static let patternReach: Int = {
        var longest = 0.0
        for k in 0..<512 {
            let x = Double(BriefPattern.pairs[2 * k]), y = Double(BriefPattern.pairs[2 * k + 1])
            longest = max(longest, (x * x + y * y).squareRoot())
        }
        return Int(longest.rounded(.up)) + 1
    }()

    // The pattern's 512 points as separate x and y arrays, so the rotation loop vectorises.
    private static let patternX: [Float] = (0..<512).map { Float(BriefPattern.pairs[2 * $0]) }
    private static let patternY: [Float] = (0..<512).map { Float(BriefPattern.pairs[2 * $0 + 1]) }

    /// The `keeping` keypoints of `image` spread over its frame (`spreadSelection`), with their
    /// descriptors: every level's `2 * quota` strongest FAST corners are ranked by Harris, the level's
    /// `quota` best kept, all levels interleaved by rank (the strongest of every level in proportion
    /// to its quota), and only the keypoints the spread keeps are oriented and described.
    /// The loops run by `path` (the same output).
    static func extract(from image: LumaPlane, keeping: Int, path: KernelPath = .best) -> Output {
        let factor = Float(1.0 / scaleFactor)
        var desired = Float(featureCount) * (1 - factor) / (1 - Float(Double(factor) * Double(factor) * Double(factor)))
        var quotas: [Int] = []
        var used = 0
        for _ in 0..<(levelCount - 1) {
            let q = Int(desired.rounded(.toNearestOrEven)); quotas.append(q); used += q; desired *= factor
        }
        quotas.append(max(featureCount - used, 0))

        var levels: [(plane: LumaPlane, scale: Float)] = []
        var found: [(level: Int, point: Candidate)] = []
        var ranks: [Double] = []
        var level = image
        var layerScale: Float = 1
        let first = firstThreshold(in: image, count: 2 * quotas[0], path: path)
        var guess = first.threshold
        for l in 0..<levelCount {
            if l > 0 {
                layerScale = Float(pow13(l))
                let w = Int((Double(image.width) / Double(layerScale)).rounded(.toNearestOrEven))
                let h = Int((Double(image.height) / Double(layerScale)).rounded(.toNearestOrEven))
                guard w > 2 * edge, h > 2 * edge else { break }
                level = PlaneResampling.resizedBilinear(level, width: w, height: h, path: path)
            }
            levels.append((level, layerScale))
            let (points, cut) = keypoints(in: level, quota: quotas[l], guess: guess, sample: l == 0 ? first.sample : nil, path: path)
            // A coarser level's cut is rarely below two thirds of a finer one's.
            guess = cut * 2 / 3
            found += points.map { (l, $0) }
            ranks += points.indices.map { (Double($0) + 0.5) / Double(max(quotas[l], 1)) }
        }
        let order = ranks.indices.sorted { ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : $0 < $1 }
        var out = Output()
        // Positions are spread as they are stored: in the fixed point the largest of all found allows.
        let xs = order.map { Float(found[$0].point.x) * levels[found[$0].level].scale }
        let ys = order.map { Float(found[$0].point.y) * levels[found[$0].level].scale }
        out.fractionBits = LocalFeatures.fractionBits(largest: max(xs.max() ?? 0, ys.max() ?? 0))
        let quantized = { (v: Float) in LocalFeatures.quantized(v, fractionBits: out.fractionBits) }
        let kept = spreadSelection(xs: xs.map(quantized), ys: ys.map(quantized), keeping: keeping)
        out.xs = kept.map { quantized(xs[$0]) }
        out.ys = kept.map { quantized(ys[$0]) }
        out.words = [UInt64](repeating: 0, count: 4 * kept.count)
        // One buffer for every level's blur (the first level is the largest), so each is not fresh memory.
        var blurred: [UInt8] = []
        for (l, level) in levels.enumerated() {
            let slots = kept.indices.filter { found[order[kept[$0]]].level == l }
            guard !slots.isEmpty else { continue }
            let points = slots.map { found[order[kept[$0]]].point }
            PlaneResampling.gaussianBlurred7(level.plane, near: points.map { ($0.x, $0.y) }, radius: patternReach, into: &blurred, path: path)
            let words = describe(points, level: level.plane, blurred: blurred)
            for (k, slot) in slots.enumerated() {
                for w in 0..<4 { out.words[4 * slot + w] = words[4 * k + w] }
            }
        }
        return out
    }

    /// The cells a side of the frame is cut into when keypoints are kept (`spreadSelection`).
    static let spreadGrid = 4

    /// The indices (ascending) of `keeping` of the keypoints at `xs`, `ys` (strongest first as
    /// `extract` orders them) spread over the frame: each of a 4x4 grid of cells over the
    /// keypoints' extent takes at most twice its share (`keeping`/8) first, then the next strongest
    /// fill what is left. A crop or a border that leaves part of the frame still finds keypoints there.
    static func spreadSelection(xs: [Float], ys: [Float], keeping n: Int) -> [Int] {
        let count = xs.count
        guard count > n else { return Array(0..<count) }
        let grid = spreadGrid, cap = max(1, 2 * n / (grid * grid))
        let w = (xs.max() ?? 1) + 1, h = (ys.max() ?? 1) + 1
        var cells = [Int](repeating: 0, count: grid * grid), kept: [Int] = [], taken = [Bool](repeating: false, count: count)
        for k in 0..<count where kept.count < n {
            let cell = min(grid - 1, Int(xs[k] / w * Float(grid))) + grid * min(grid - 1, Int(ys[k] / h * Float(grid)))
            if cells[cell] < cap { cells[cell] += 1; kept.append(k); taken[k] = true }
        }
        for k in 0..<count where kept.count < n && !taken[k] { kept.append(k) }
        kept.sort()
        return kept
    }

    private static func pow13(_ l: Int) -> Double {
        var s = 1.0
        for _ in 0..<l { s *= scaleFactor }
        return s
    }

    /// Keeps every element scoring at least the n-th best score (OpenCV's retainBest keeps ties at the boundary).
    private static func retainBest<T>(_ items: [T], _ n: Int, score: (T) -> Float) -> [T] {
        guard items.count > n else { return items }
        guard n > 0 else { return [] }
        var s = items.map(score)
        s.sort()
        let cut = s[s.count - n]
        return items.filter { score($0) >= cut }
    }

    // retainBest for FAST's small integer scores by histogram, since there are thousands of corners per level.
    private static func retainBestScores(_ corners: [FastCorners.Corner], _ n: Int) -> [FastCorners.Corner] {
        guard corners.count > n else { return corners }
        guard n > 0 else { return [] }
        var histogram = [Int](repeating: 0, count: 256)
        for c in corners { histogram[min(c.score, 255)] += 1 }
        var cut = 255, seen = histogram[255]
        while seen < n { cut -= 1; seen += histogram[cut] }
        return corners.filter { min($0.score, 255) >= cut }
    }

    private struct Candidate { var x: Int; var y: Int; var response: Float; var order: Int }

    // Rows of the finest level sampled for its first threshold: a band of `sampleBand` rows in every `sampleSpacing`.
    private static let sampleBand = 8
    private static let sampleSpacing = 64
    // The threshold the sample is scanned at: most photos' strongest corners score above it, and a
    // scan's cost falls steeply as its threshold rises (by more than half from 10 to 40 on a dense plane).
    private static let sampleThreshold = 40

    /// FAST corners of bands of a level's rows found at `sampleThreshold`, which a scan at that
    /// threshold or above takes instead of scanning those rows again.
    struct CornerSample {
        /// The sampled rows, in order, each band clear of the level's edge.
        var bands: [Range<Int>] = []
        /// Each band's corners at `sampleThreshold`.
        var corners: [[FastCorners.Corner]] = []

        /// The corners FAST finds on `level` at `threshold` (at least `sampleThreshold`): the rows
        /// between the bands scanned, the bands' corners that score `threshold` or more taken as they
        /// are (a corner found at one threshold is found at a higher one exactly when it scores that
        /// much), in row order as one scan lists them.
        func detect(in level: LumaPlane, threshold: Int, path: KernelPath = .best) -> [FastCorners.Corner] {
            var found: [FastCorners.Corner] = []
            var top = edge
            for (band, inBand) in zip(bands, corners) {
                found += FastCorners.detect(in: level, threshold: threshold, border: edge, rows: top..<band.lowerBound, path: path)
                found += inBand.lazy.filter { $0.score >= threshold }
                top = band.upperBound
            }
            found += FastCorners.detect(in: level, threshold: threshold, border: edge, rows: top..<(level.height - edge), path: path)
            return found
        }
    }

    /// The FAST threshold the finest level is first scanned at, and the sample it was chosen from:
    /// the corners of bands of its rows found at `sampleThreshold`, scaled to all its rows. The
    /// highest threshold at which they promise one and a half times `n`; else `sampleThreshold` while they promise
    /// half of `n` at it; else one lowered as `strongestCorners` lowers it after a scan that found
    /// too few. A photo dense with corners is then scanned once at a high threshold, one with few
    /// strong corners once at a low one instead of first at a raised one; any threshold gives the
    /// same corners (`strongestCorners`), only the work differs.
    static func firstThreshold(in level: LumaPlane, count n: Int, path: KernelPath = .best) -> (threshold: Int, sample: CornerSample?) {
        let kept = level.height - 2 * edge
        guard kept > sampleSpacing else { return (sampleThreshold, nil) }
        var sample = CornerSample()
        var histogram = [Int](repeating: 0, count: 256)
        var top = edge + (sampleSpacing - sampleBand) / 2
        while top + sampleBand <= level.height - edge {
            let band = top..<(top + sampleBand)
            let corners = FastCorners.detect(in: level, threshold: sampleThreshold, border: edge, rows: band, path: path)
            for c in corners { histogram[min(c.score, 255)] += 1 }
            sample.bands.append(band)
            sample.corners.append(corners)
            top += sampleSpacing
        }
        let sampled = sample.bands.count * sampleBand
        // Scores counted from the top until they promise one and a half times the corners asked for over all the rows.
        var seen = 0
        for t in stride(from: 255, through: sampleThreshold, by: -1) {
            seen += histogram[t]
            if 2 * seen * kept >= 3 * n * sampled { return (t, sample) }
        }
        let promised = seen * kept / sampled
        if 2 * promised >= n { return (sampleThreshold, sample) }
        return (lowered(from: sampleThreshold, found: promised, wanted: n), sample)
    }

    /// The threshold to scan at after one at `threshold` found `found` of the `wanted` corners: corner
    /// counts about double for every 10 the threshold drops, and one step more for a margin.
    private static func lowered(from threshold: Int, found: Int, wanted: Int) -> Int {
        var threshold = threshold, expected = max(found, 1)
        repeat { threshold -= 10; expected *= 2 } while expected < wanted && threshold > fastThreshold
        return max(threshold - 10, fastThreshold)
    }

    /// The `2 * quota` strongest FAST corners of `level` (ties at the cut kept), as `retainBestScores`
    /// keeps them from every corner above `fastThreshold`, and the lowest score kept.
    ///
    /// FAST at a raised threshold t finds exactly the corners scoring t or more (suppression only
    /// compares a corner with neighbours, and one scoring t or more beats any neighbour under t either
    /// way), so when there are already `2 * quota` of them the strongest are the same and the many weak
    /// corners are never scored; otherwise the threshold is lowered (down to `fastThreshold`) by as much as the
    /// shortfall suggests. A scan at `sampleThreshold` or above takes `sample`'s bands as they were found.
    static func strongestCorners(in level: LumaPlane, count n: Int, guess: Int, sample: CornerSample? = nil,
                                 path: KernelPath = .best) -> (corners: [FastCorners.Corner], cut: Int) {
        var threshold = max(guess, fastThreshold)
        while true {
            let corners = if let sample, threshold >= sampleThreshold {
                sample.detect(in: level, threshold: threshold, path: path)
            } else {
                FastCorners.detect(in: level, threshold: threshold, border: edge, path: path)
            }
            if corners.count >= n || threshold == fastThreshold {
                let strong = retainBestScores(corners, n)
                return (strong, strong.lazy.map(\.score).min() ?? fastThreshold)
            }
            threshold = lowered(from: threshold, found: corners.count, wanted: n)
        }
    }

    private static func keypoints(in level: LumaPlane, quota: Int, guess: Int, sample: CornerSample?, path: KernelPath) -> ([Candidate], Int) {
        let (strong, cut) = strongestCorners(in: level, count: 2 * quota, guess: guess, sample: sample, path: path)
        var cands: [Candidate] = []
        cands.reserveCapacity(strong.count)
        level.pixels.withUnsafeBufferPointer { px in
            for (i, c) in strong.enumerated() {
                cands.append(Candidate(x: c.x, y: c.y, response: harris(px.baseAddress!, level.width, c.x, c.y, path: path), order: i))
            }
        }
        var best = retainBest(cands, quota) { $0.response }
        best.sort { $0.response != $1.response ? $0.response > $1.response : $0.order < $1.order }
        // Ties at the cut are all kept, up to a bound that keeps the ranking and the spread's work
        // bounded (a fingerprint holds the spread's 128 whatever the ties).
        if best.count > 4 * quota { best.removeLast(best.count - 4 * quota) }
        return (best, cut)
    }

    // Harris response over a 7x7 block of 3x3 Sobel gradients, in OpenCV's arithmetic (its positive scale factor omitted);
    // the gradients' sums by the loops of `path` (the same integers).
    private static func harris(_ img: UnsafePointer<UInt8>, _ step: Int, _ cx: Int, _ cy: Int, path: KernelPath) -> Float {
        #if arch(x86_64)
        if path == .avx2 {
            let sums = HarrisAVX2.gradientSums(img + cy * step + cx, step: step)
            return response(Int(sums.xx), Int(sums.yy), Int(sums.xy))
        }
        #endif
        var a = 0, b = 0, c = 0
        for dy in -3...3 {
            let row = img + (cy + dy) * step + cx
            for dx in -3...3 {
                let p = row + dx
                let ix = (Int(p[1]) - Int(p[-1])) * 2 + (Int(p[-step + 1]) - Int(p[-step - 1])) + (Int(p[step + 1]) - Int(p[step - 1]))
                let iy = (Int(p[step]) - Int(p[-step])) * 2 + (Int(p[step - 1]) - Int(p[-step - 1])) + (Int(p[step + 1]) - Int(p[-step + 1]))
                a += ix * ix; b += iy * iy; c += ix * iy
            }
        }
        return response(a, b, c)
    }

    // The response of the gradients' sums `a` (x²), `b` (y²) and `c` (xy).
    @inline(__always) private static func response(_ a: Int, _ b: Int, _ c: Int) -> Float {
        let fa = Float(a), fb = Float(b), fc = Float(c)
        return fa * fb - fc * fc - harrisK * (fa + fb) * (fa + fb)
    }

    // `blurred` holds the level's blurred samples (rows of `level.width`) at its start.
    private static func describe(_ points: [Candidate], level: LumaPlane, blurred: [UInt8]) -> [UInt64] {
        let step = level.width
        var out: [UInt64] = []
        out.reserveCapacity(4 * points.count)
        level.pixels.withUnsafeBufferPointer { raw in
            blurred.withUnsafeBufferPointer { blur in
                patternX.withUnsafeBufferPointer { patX in patternY.withUnsafeBufferPointer { patY in
                    umax.withUnsafeBufferPointer { um in
                        for p in points {
                            let center = raw.baseAddress! + p.y * step + p.x
                            var m01: Int32 = 0, m10: Int32 = 0
                            // Wrapping 32-bit arithmetic (the sums stay under 2 million) lets the row loops vectorise four lanes wide.
                            for u in -halfPatch...halfPatch { m10 &+= Int32(truncatingIfNeeded: u) &* Int32(center[u]) }
                            for v in 1...halfPatch {
                                var vSum: Int32 = 0
                                let d = um[v]
                                let up = center + v * step, down = center - v * step
                                for u in -d...d {
                                    let plus = Int32(up[u]), minus = Int32(down[u])
                                    vSum &+= plus &- minus
                                    m10 &+= Int32(truncatingIfNeeded: u) &* (plus &+ minus)
                                }
                                m01 &+= Int32(truncatingIfNeeded: v) &* vSum
                            }
                            var cosA: Float = 1, sinA: Float = 0
                            let norm = (Double(m10) * Double(m10) + Double(m01) * Double(m01)).squareRoot()
                            if norm > 0 { cosA = Float(Double(m10) / norm); sinA = Float(Double(m01) / norm) }

                            let bc = blur.baseAddress! + p.y * step + p.x
                            let stepF = Float(step)
                            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 512) { offs in
                                // Adding and removing 1.5·2^23 rounds half to even like cvRound; the sums stay exact integers in Float.
                                for k in 0..<512 {
                                    let x = patX[k], y = patY[k]
                                    let rx = (x * cosA - y * sinA + 12582912.0) - 12582912.0
                                    let ry = (x * sinA + y * cosA + 12582912.0) - 12582912.0
                                    // The same trick reads the integer offset out of the mantissa without a checked conversion.
                                    offs[k] = Int32(bitPattern: (ry * stepF + rx + 12582912.0).bitPattern & 0x7F_FFFF) &- 0x40_0000
                                }
                                for w in 0..<4 {
                                    var word: UInt64 = 0
                                    for bit in 0..<64 {
                                        let i = 2 * (w * 64 + bit)
                                        if bc[Int(offs[i])] < bc[Int(offs[i + 1])] { word |= 1 << UInt64(bit) }
                                    }
                                    out.append(word)
                                }
                            }
                        }
                    }
                } }
            }
        }
        return out
    }
}
