import BlurMetrics
import BlurModel
import ImageCodecs
import LumaAnalysis
import PhotoFormat
import PhotoValidation

extension PlaneMeasurement {
    /// Decodes `image` strip by strip as `plan` says into the analysis plane at `scale` and
    /// measures its blur, judging the `strongestShare` of tiles with most detail, and at half scale
    /// too with `coarseWeight` > 0. When the analysis-plane score is under `finerBelow` (the
    /// threshold) and the decoded pixels are finer than the plane, the finer plane is judged
    /// instead where the analysis plane lost its detail (`ScaleAwareBlurScore`). `crossingCorrected`
    /// judges each tile by the directions of its own edges (`OrientedDetail.crossingCorrectedScore`).
    /// With `threads` above 1 (cores no other photo holds), the plane is built from each strip
    /// on a second thread while the decoder makes the next (`StripPipeline`), which also measures
    /// the plane's top bands of tile rows as their rows are written (`EarlyBands`), and the rest
    /// of the blur score and the exposure and fingerprint figures, which all only read the plane,
    /// are measured at the same time. The luma time is then only the wait for the plane after the
    /// decode ended. A HEIC needs no pipeline: its tile threads hand out each strip once its tiles
    /// are decoded, and build the plane and its top bands from it while the others decode (the
    /// luma time is then that work, done during the decode, and the decode time the whole wait
    /// for the last strip). A `fingerprint`
    /// passed in (the first decode's, for a photo decoded again) is kept rather than measured
    /// again, so a photo's fingerprint does not depend on whether its blur score asked for a
    /// second look. Without `fingerprinting` none is made (its 2-3 ms are spent only when a
    /// duplicate check or the caller reads it).
    ///
    /// - Throws: `DecodeFailure` when the pixels are truncated or corrupt.
    public static func measure(_ image: EncodedImage, plan: DecodePlan, scale: AnalysisScale, strongestShare: Double, coarseWeight: Double = 0,
                               finerBelow: Double = .infinity, crossingCorrected: Bool = false, threads: Int = 1,
                               fingerprinting: Bool = true, fingerprint known: PhotoFingerprint? = nil) throws(DecodeFailure) -> PlaneMeasurement {
        let clock = ContinuousClock()
        let target = scale.analysisSize(width: image.header.storedWidth, height: image.header.storedHeight)
        // Issue 48's label is what a person sees with the photo shown at 1024 px on its long side:
        // a smaller photo (its plane is the photo itself) is scored magnified to that size, so that
        // its blur counts in screen pixels, and no bands of its own plane are measured. The
        // Laplacian variance, exposure and fingerprint stay the photo's own.
        let magnifying = max(target.width, target.height) < LumaPlane.displayLongSide
        var builder: AnalysisPlaneBuilder?
        // On an idle core the plane is built from each strip while the decoder makes the next
        // (a HEIC's tile threads do it themselves).
        var pipeline: StripPipeline?
        var early: EarlyBands?
        var lumaTime = Duration.zero
        let decodeStart = clock.now
        do {
            try image.decodeStrips(plan: plan, rowsPerStrip: stripRows) { geometry in
                guard (1...4).contains(geometry.bands) else {
                    throw DecodeFailure(.corruptPixels, "the decoder produced \(geometry.bands) samples per pixel; 1 to 4 are measured")
                }
                let made = AnalysisPlaneBuilder(
                    sourceWidth: geometry.width, sourceHeight: geometry.height,
                    bands: geometry.bands, targetWidth: target.width, targetHeight: target.height, keepsFinerPlane: true
                )
                builder = made
                guard threads > 1, !magnifying else {
                    return
                }
                // The plane's top bands are measured as their rows are written: on the pipeline's
                // thread, idle most of the decode, or on a HEIC's tile threads as they hand out strips.
                let bands = EarlyBands(count: Self.pipelineBands)
                early = bands
                if !image.spreadsOverThreads {
                    pipeline = StripPipeline { rows, count, stride in
                        made.append(rows: rows, count: count, rowStride: stride)
                        bands.measureReady(from: made)
                    }
                }
            } body: { strip, _, rowCount, rowStride in
                if let pipeline {
                    pipeline.push(rows: strip, rowCount: rowCount, rowStride: rowStride)
                    return
                }
                let start = clock.now
                builder!.append(rows: strip, count: rowCount, rowStride: rowStride)
                lumaTime += clock.now - start
                early?.measureReady(from: builder!)
            }
        } catch let failure as DecodeFailure {
            pipeline?.finish()
            throw failure
        } catch {
            pipeline?.finish()
            throw DecodeFailure(.corruptPixels, "decoding stopped: \(error)")
        }
        var decodeAndLuma = clock.now - decodeStart
        if let pipeline {
            // What the luma stage adds when it overlaps the decode: the wait for its last strips.
            let decoded = clock.now
            pipeline.finish()
            lumaTime = clock.now - decoded
            decodeAndLuma += lumaTime
        }
        guard let builder else {
            throw DecodeFailure(.corruptPixels, "the decoder produced no pixels")
        }
        let plane = builder.finish()
        let finer = builder.finishFiner()
        // The blur score's parts (the plane's detail in bands of tile rows and its noise, the
        // halved plane and its detail, the Laplacian statistics) and the exposure and fingerprint
        // figures all only read the plane: on two threads they are shared out about evenly, the
        // bands the pipeline measured during the decode aside.
        let earlyBands = early?.bands ?? []
        let bandCount = early?.count ?? (threads > 1 ? Self.pipelineBands : 1)
        let remaining = magnifying ? bandCount..<bandCount : earlyBands.count..<bandCount
        // On two threads the second takes a quarter of the bands left (at least one) beside the
        // fingerprint, when more than one is left.
        let lowerShare = threads > 1 && remaining.count > 1 ? (remaining.count + 3) / 4 : 0
        let upperBands = remaining.lowerBound..<(remaining.upperBound - lowerShare)
        let lowerBands = upperBands.upperBound..<remaining.upperBound
        let upper = { () -> (bands: [OrientedDetail.TileBand], noiseSigma: Double, coarse: OrientedDetail?, statistics: LaplacianStatistics,
                             magnifiedScore: Double?, time: Duration) in
            let start = clock.now
            let statistics = LaplacianVariance.statistics(of: plane)
            if magnifying {
                // Magnified here, on this thread, beside the exposure and fingerprint on the other.
                let score = OrientedDetail.score(of: plane.magnified() ?? plane, strongestShare: strongestShare, coarseWeight: coarseWeight,
                                                 crossingCorrected: crossingCorrected)
                return ([], 0, nil, statistics, score, clock.now - start)
            }
            // Only the noise estimate and the coarse detail read the halved plane: halved here,
            // it is not a wait before the two threads start.
            let half = plane.halved()
            let bands = upperBands.map { OrientedDetail.band($0, of: bandCount, plane: plane) }
            let noiseSigma = NoiseEstimate.whiteNoiseSigma(of: plane, halved: half)
            let coarse = coarseWeight > 0 ? half.map { OrientedDetail(plane: $0) } : nil
            return (bands, noiseSigma, coarse, statistics, nil, clock.now - start)
        }
        let lower = { () -> (bands: [OrientedDetail.TileBand], bandTime: Duration, blurModel: BlurModelEstimate?, exposure: ExposureStatistics,
                             fingerprint: PhotoFingerprint?, exposureTime: Duration, fingerprintTime: Duration) in
            let start = clock.now
            let bands = lowerBands.map { OrientedDetail.band($0, of: bandCount, plane: plane) }
            // The blur model reads the analysis plane as it is (SPEC: smaller photos at their own size).
            let blurModel = BlurModel.shipped.estimate(plane)
            let exposureStart = clock.now
            let exposure = ExposureStatistics(of: plane)
            let fingerprintStart = clock.now
            let fingerprint = known ?? (fingerprinting ? PhotoFingerprint(of: plane) : nil)
            // A fingerprint not made takes no time (the stage reads 0).
            let fingerprintTime = known == nil && !fingerprinting ? Duration.zero : clock.now - fingerprintStart
            return (bands, exposureStart - start, blurModel, exposure, fingerprint, fingerprintStart - exposureStart, fingerprintTime)
        }
        let first: (bands: [OrientedDetail.TileBand], noiseSigma: Double, coarse: OrientedDetail?, statistics: LaplacianStatistics,
                    magnifiedScore: Double?, time: Duration)
        let second: (bands: [OrientedDetail.TileBand], bandTime: Duration, blurModel: BlurModelEstimate?, exposure: ExposureStatistics,
                     fingerprint: PhotoFingerprint?, exposureTime: Duration, fingerprintTime: Duration)
        if threads > 1 {
            (first, second) = ConcurrentPair.run(upper, lower)
        } else {
            first = upper()
            second = lower()
        }
        let scoringStart = clock.now
        let analysisScore: Double
        if let magnifiedScore = first.magnifiedScore {
            analysisScore = magnifiedScore
        } else {
            let fine = OrientedDetail(plane: plane, bands: earlyBands + first.bands + second.bands, noiseSigma: first.noiseSigma)
            analysisScore = OrientedDetail.score(fine: fine, coarse: first.coarse, strongestShare: strongestShare,
                                                 coarseWeight: coarseWeight, crossingCorrected: crossingCorrected)
        }
        let scales = ScaleAwareBlurScore.measure(analysis: plane, analysisScore: analysisScore, finer: finer, strongestShare: strongestShare,
                                                 coarseWeight: coarseWeight, finerBelow: finerBelow, crossingCorrected: crossingCorrected)
        // The blur stage's own time, as on one thread: its parts, wherever they ran.
        let blurTime = (early?.time ?? .zero) + first.time + second.bandTime + (clock.now - scoringStart)
        let statistics = first.statistics
        let (exposure, fingerprint, exposureTime, fingerprintTime) = (second.exposure, second.fingerprint, second.exposureTime, second.fingerprintTime)
        return PlaneMeasurement(
            statistics: statistics,
            blurScore: scales.score,
            scales: scales,
            analysisWidth: plane.width,
            analysisHeight: plane.height,
            decodeScale: plan.scale,
            // A HEIC's tile threads built the plane while decoding: its decode time is the whole wait.
            decodeSeconds: (plan.threads > 1 && image.spreadsOverThreads ? decodeAndLuma : decodeAndLuma - lumaTime).seconds,
            lumaSeconds: lumaTime.seconds,
            blurSeconds: blurTime.seconds,
            exposure: exposure,
            fingerprint: fingerprint,
            exposureSeconds: exposureTime.seconds,
            fingerprintSeconds: fingerprintTime.seconds,
            hasFinerPlane: finer != nil,
            blurModel: second.blurModel
        )
    }

    /// The memory a decode on more than one thread adds beside `estimatedBytes`: the strips
    /// handed to the thread that builds the plane (`StripPipeline`), for a picture `width` wide.
    public static func pipelineBytes(width: Int) -> Int {
        StripPipeline.estimatedBytes(width: width, rowsPerStrip: stripRows)
    }

    /// Rows per decoded strip.
    static let stripRows = 64

    /// Bands of tile rows the plane's detail is measured in on more than one thread: all but the
    /// last measured during the decode when strips go through the pipeline (`EarlyBands`).
    static let pipelineBands = 8
}
