/// A similarity transform of the plane, z ↦ s·z + t in complex numbers (z = x + iy): a scale, a
/// turn and a shift, what a copy of a photo (resized, cropped, turned) is of its original.
struct Similarity: Sendable, Equatable {
    /// The real part of s.
    var sr: Double
    /// The imaginary part of s.
    var si: Double
    /// The shift's x.
    var tx: Double
    /// The shift's y.
    var ty: Double

    /// |s|, the scale.
    var scale: Double { (sr * sr + si * si).squareRoot() }

    /// The image of (x, y).
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (sr * x - si * y + tx, sr * y + si * x + ty)
    }

    /// The image of (x, y) under the inverse transform; nil s is never made (fits need distinct points).
    func inverse(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let dx = x - tx, dy = y - ty, norm = sr * sr + si * si
        return ((sr * dx + si * dy) / norm, (sr * dy - si * dx) / norm)
    }

    /// The least-squares similarity taking the points (ax, ay) to (bx, by) at `indices`; nil for
    /// fewer than two points or points that coincide.
    static func fitted(ax: [Double], ay: [Double], bx: [Double], by: [Double], indices: [Int]) -> Similarity? {
        guard indices.count >= 2 else { return nil }
        let n = Double(indices.count)
        var max = 0.0, may = 0.0, mbx = 0.0, mby = 0.0
        for i in indices { max += ax[i]; may += ay[i]; mbx += bx[i]; mby += by[i] }
        max /= n; may /= n; mbx /= n; mby /= n
        // s = Σ conj(za − ma)(zb − mb) / Σ|za − ma|².
        var numeratorReal = 0.0, numeratorImaginary = 0.0, denominator = 0.0
        for i in indices {
            let px = ax[i] - max, py = ay[i] - may, qx = bx[i] - mbx, qy = by[i] - mby
            numeratorReal += px * qx + py * qy
            numeratorImaginary += px * qy - py * qx
            denominator += px * px + py * py
        }
        guard denominator > 1e-9 else { return nil }
        let sr = numeratorReal / denominator, si = numeratorImaginary / denominator
        return Similarity(sr: sr, si: si, tx: mbx - (sr * max - si * may), ty: mby - (sr * may + si * max))
    }
}
