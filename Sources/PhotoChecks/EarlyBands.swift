import BlurMetrics

/// The blur score's bands of tile rows measured where the analysis plane is built (the
/// `StripPipeline`'s thread, or a HEIC's tile threads), each as soon as every row it reads is
/// written, while the decoder makes the rest: what is left for after the decode is the bottom of
/// the plane.
final class EarlyBands: @unchecked Sendable {
    /// Bands the plane's tile rows are measured in.
    let count: Int
    /// The bands measured so far, from band 0 on, in order.
    private(set) var bands: [OrientedDetail.TileBand] = []
    /// The time spent measuring them.
    private(set) var time = Duration.zero

    /// Bands of `count` (at least 2: the last is always left for after the decode).
    init(count: Int) {
        precondition(count >= 2, "the last band is measured after the decode, so early bands need at least two")
        self.count = count
    }

    /// Measures each next band whose rows `builder` has written, all but the last, whose rows are
    /// only complete once the decode has ended. Call it where strips are appended to `builder`,
    /// after each (one thread at a time); read `bands` only once the decode has returned and every
    /// append is done (`StripPipeline.finish()`).
    func measureReady(from builder: AnalysisPlaneBuilder) {
        let clock = ContinuousClock()
        while bands.count < count - 1 {
            let start = clock.now
            guard let band = builder.band(bands.count, of: count) else { return }
            bands.append(band)
            time += clock.now - start
        }
    }
}
