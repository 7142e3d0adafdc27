/// Mutual ratio-test matching of binary descriptors and the RANSAC similarity fit that scores it.
enum FeatureMatcher {
    /// The 512 xorshift32 draws (seed 39, first output after one step) that pick the 256 RANSAC hypotheses.
    static let draws: [UInt32] = {
        var x: UInt32 = 39
        var out: [UInt32] = []
        out.reserveCapacity(512)
        for _ in 0..<512 {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5
            out.append(x)
        }
        return out
    }()

    /// Pairs (i, j) where a_i's nearest b is b_j (lowest index on ties) at distance d1 <= 64, d1 < 0.8·d2 (d2 the second nearest), and b_j's nearest a is a_i.
    static func mutualMatches(_ a: [UInt64], _ na: Int, _ b: [UInt64], _ nb: Int) -> [(Int, Int)] {
        guard na >= 2, nb >= 2 else { return [] }
        var rowBest = [Int](repeating: 0, count: na), rowD1 = [Int](repeating: 0, count: na), rowD2 = [Int](repeating: 0, count: na)
        var colBest = [Int](repeating: 0, count: nb), colD = [Int](repeating: Int.max, count: nb)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                colBest.withUnsafeMutableBufferPointer { cb in
                    colD.withUnsafeMutableBufferPointer { cd in
                        for i in 0..<na {
                            let a0 = pa[4 * i], a1 = pa[4 * i + 1], a2 = pa[4 * i + 2], a3 = pa[4 * i + 3]
                            var d1 = Int.max, d2 = Int.max, j1 = 0
                            for j in 0..<nb {
                                let d = (a0 ^ pb[4 * j]).nonzeroBitCount + (a1 ^ pb[4 * j + 1]).nonzeroBitCount
                                    + (a2 ^ pb[4 * j + 2]).nonzeroBitCount + (a3 ^ pb[4 * j + 3]).nonzeroBitCount
                                if d < d1 { d2 = d1; d1 = d; j1 = j } else if d < d2 { d2 = d }
                                if d < cd[j] { cd[j] = d; cb[j] = i }
                            }
                            rowBest[i] = j1; rowD1[i] = d1; rowD2[i] = d2
                        }
                    }
                }
            }
        }
        var pairs: [(Int, Int)] = []
        for i in 0..<na {
            let j = rowBest[i], d1 = rowD1[i]
            // d1 < 0.8·d2 in integers.
            if d1 <= 64, 5 * d1 < 4 * rowD2[i], colBest[j] == i { pairs.append((i, j)) }
        }
        return pairs
    }

    /// The largest number of pairs within 2 px of one of the 256 sampled similarity transforms z ↦ s·z + t fitted to two pairs, and that transform; 0 and nil below 3 pairs.
    static func ransac(ax: [Double], ay: [Double], bx: [Double], by: [Double]) -> (inliers: Int, transform: Similarity?) {
        let n = ax.count
        guard n >= 3 else { return (0, nil) }
        var best = 0
        var bestTransform: Similarity?
        for h in 0..<256 {
            let i = Int(draws[2 * h] % UInt32(n)), j = Int(draws[2 * h + 1] % UInt32(n))
            guard i != j else { continue }
            let dax = ax[j] - ax[i], day = ay[j] - ay[i]
            let den = dax * dax + day * day
            guard den.squareRoot() > 1e-3 else { continue }
            let dbx = bx[j] - bx[i], dby = by[j] - by[i]
            let sr = (dbx * dax + dby * day) / den, si = (dby * dax - dbx * day) / den
            let tr = bx[i] - (sr * ax[i] - si * ay[i]), ti = by[i] - (sr * ay[i] + si * ax[i])
            var count = 0
            for m in 0..<n {
                let rx = sr * ax[m] - si * ay[m] + tr - bx[m], ry = sr * ay[m] + si * ax[m] + ti - by[m]
                if rx * rx + ry * ry < 4.0 { count += 1 }
            }
            if count > best {
                best = count
                bestTransform = Similarity(sr: sr, si: si, tx: tr, ty: ti)
            }
        }
        return (best, bestTransform)
    }

    /// `transform` refitted three times by least squares to the pairs within 2 px of it (fewer than two such pairs end the refit).
    static func refined(_ transform: Similarity, ax: [Double], ay: [Double], bx: [Double], by: [Double]) -> Similarity {
        var current = transform
        for _ in 0..<3 {
            let inliers = ax.indices.filter { m in
                let p = current.apply(ax[m], ay[m])
                let rx = p.x - bx[m], ry = p.y - by[m]
                return rx * rx + ry * ry < 4.0
            }
            guard let next = Similarity.fitted(ax: ax, ay: ay, bx: bx, by: by, indices: inliers) else { break }
            current = next
        }
        return current
    }
}
