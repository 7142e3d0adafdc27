extension OrientedDetail {
    /// The blur score with each tile's curvature judged against the share a uniformly sharp
    /// structure of the tile's own edge directions keeps along each orientation (issue 35, part 2).
    ///
    /// An edge whose normal makes an angle a with an orientation shows there a curvature-to-gradient
    /// ratio cos^2(a) times its own: the diagonals see a lone horizontal edge at half its
    /// sharpness, and the orientation along it not at all, so `score(strongestShare:noisePercentile:)`,
    /// which takes the weakest orientation, calls a crisp subject whose edges run mostly one way
    /// (petals, drops, slats) blurry. Per tile the four gradient energies, above the noise floor,
    /// are a quadratic form of the direction: they give the share q of the energy in one direction
    /// and that direction, and, taking the rest as spread evenly, the ratio a uniformly sharp tile
    /// keeps along orientation k (`expectedShare`; 3/4 when isotropic, 1 along a lone edge's normal).
    /// Each tile's curvature along k is divided by that share, times 3/4, so an isotropic texture
    /// scores as before. Motion blur still fails: it widens the edges along its direction whatever
    /// their share, and a tile smeared along one direction keeps 3/4 there (its coherent part lies
    /// across the motion), so the ratio left along the motion is judged in full.
    public func crossingCorrectedScore(strongestShare: Double, noisePercentile: Double = Self.defaultNoisePercentile) -> Double {
        let tiles = columns * rows
        guard tiles > 0 else { return 0 }
        let taken = max(1, Int((strongestShare * Double(tiles)).rounded(.down)))
        let floors = (0..<4).map { noiseFloor(orientation: $0, noisePercentile: noisePercentile) }
        let sigma = min(noiseSigma, Self.noiseCapMaximumSigma)
        var weakest = Double.infinity
        for k in 0..<4 {
            var curvatureSum = 0.0, gradientSum = 0.0
            for tile in strongestTiles(orientation: k, taken: taken) {
                let above = (0..<4).map { max(gradient[$0][tile] - floors[$0].gradient, 0) }
                let share = Self.expectedShare(gradients: above, orientation: k)
                curvatureSum += max(curvature[k][tile] - floors[k].curvature, 0) * 0.75 / max(share, Self.minimumExpectedShare)
                gradientSum += above[k]
            }
            let noiseGradient = Self.noiseGuard * Double(taken) * Self.noiseGradientGain[k] * sigma * sigma
            weakest = min(weakest, gradientSum > max(1e-9, noiseGradient) ? 100 * curvatureSum / gradientSum : 0)
        }
        return weakest
    }

    /// The smallest expected share a tile's curvature is divided by: at most twice the isotropic
    /// 3/4, the factor a lone edge loses on a diagonal. Along an orientation almost parallel to a
    /// tile's edges the expected share falls towards 0, and a larger gain there would credit the
    /// edges motion blur leaves crisp along its direction (chosen on the labelled and independent
    /// sets by worst left-out source, with a synthetic striped subject blurred across its stripes:
    /// docs/tuning.md).
    public static let minimumExpectedShare = 0.375

    /// The share of an edge's curvature-to-gradient ratio that a uniformly sharp structure with the
    /// tile's four directional gradient energies `gradients` (0, 45, 90, 135 degrees) keeps along
    /// `orientation`: with q the coherent share of the energy and a the angle between its normal
    /// and the orientation, (q cos^4 a + 3/8 (1 - q)) / (q cos^2 a + 1/2 (1 - q)).
    public static func expectedShare(gradients g: [Double], orientation k: Int) -> Double {
        let total = (g[0] + g[1] + g[2] + g[3]) / 2
        guard total > 0 else { return 0.75 }
        let along0 = g[0] - g[2], along45 = g[1] - g[3]
        let spread = (along0 * along0 + along45 * along45).squareRoot()
        guard spread > 0 else { return 0.75 }
        let q = min(spread / total, 1)
        // cos(2 theta_k - 2 phi) for theta_k = 0, 45, 90, 135 degrees.
        let cosine = [along0, along45, -along0, -along45][k] / spread
        let squared = (1 + cosine) / 2
        let m2 = q * squared + (1 - q) / 2
        let m4 = q * squared * squared + 3 * (1 - q) / 8
        return m2 > 1e-6 ? m4 / m2 : 0.75
    }
}
