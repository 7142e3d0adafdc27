import BlurMetrics
import LumaAnalysis
import PhotoFormat
import PhotoValidation
import VipsDecoder

extension BlurMeasurement {
    /// Decodes `image` strip by strip as `plan` says into the analysis plane at `scale` and
    /// measures its blur, judging the `strongestShare` of tiles with most detail, and at half scale
    /// too with `coarseWeight` > 0. When the analysis-plane score is under `finerBelow` (the
    /// threshold) and the decoded pixels are finer than the plane, the finer plane is judged
    /// instead where the analysis plane lost its detail (`ScaleAwareBlurScore`). `crossingCorrected`
    /// judges each tile by the directions of its own edges (`OrientedDetail.crossingCorrectedScore`).
    /// With `threads` above 1 (cores no other photo holds), the blur score and the exposure and
    /// fingerprint figures, which all only read the plane, are measured at the same time.
    ///
    /// - Throws: `DecodeFailure` when the pixels are truncated or corrupt.
    public static func measure(_ image: EncodedImage, plan: DecodePlan, scale: AnalysisScale, strongestShare: Double, coarseWeight: Double = 0,
                               finerBelow: Double = .infinity, crossingCorrected: Bool = false, threads: Int = 1) throws(DecodeFailure) -> BlurMeasurement {
        let clock = ContinuousClock()
        let target = scale.analysisSize(width: image.header.storedWidth, height: image.header.storedHeight)
        var builder: AnalysisPlaneBuilder?
        var lumaTime = Duration.zero
        let decodeStart = clock.now
        do {
            try image.decodeStrips(plan: plan) { geometry in
                guard (1...4).contains(geometry.bands) else {
                    throw DecodeFailure(.corruptPixels, "the decoder produced \(geometry.bands) samples per pixel; 1 to 4 are measured")
                }
                builder = AnalysisPlaneBuilder(
                    sourceWidth: geometry.width, sourceHeight: geometry.height,
                    bands: geometry.bands, targetWidth: target.width, targetHeight: target.height, keepsFinerPlane: true
                )
            } body: { strip, _, rowCount, rowStride in
                let start = clock.now
                builder!.append(rows: strip, count: rowCount, rowStride: rowStride)
                lumaTime += clock.now - start
            }
        } catch let failure as DecodeFailure {
            throw failure
        } catch {
            throw DecodeFailure(.corruptPixels, "decoding stopped: \(error)")
        }
        let decodeAndLuma = clock.now - decodeStart
        guard let builder else {
            throw DecodeFailure(.corruptPixels, "the decoder produced no pixels")
        }
        let plane = builder.finish()
        let finer = builder.finishFiner()
        let blur = { () -> (statistics: LaplacianStatistics, scales: ScaleAwareBlurScore, time: Duration) in
            let start = clock.now
            let statistics = LaplacianVariance.statistics(of: plane)
            let scales = ScaleAwareBlurScore.measure(analysis: plane, finer: finer, strongestShare: strongestShare,
                                                     coarseWeight: coarseWeight, finerBelow: finerBelow, crossingCorrected: crossingCorrected)
            return (statistics, scales, clock.now - start)
        }
        let figures = { () -> (exposure: ExposureStatistics, fingerprint: PhotoFingerprint, exposureTime: Duration, fingerprintTime: Duration) in
            let start = clock.now
            let exposure = ExposureStatistics(of: plane)
            let fingerprintStart = clock.now
            let fingerprint = PhotoFingerprint(of: plane)
            return (exposure, fingerprint, fingerprintStart - start, clock.now - fingerprintStart)
        }
        let blurred: (statistics: LaplacianStatistics, scales: ScaleAwareBlurScore, time: Duration)
        let measured: (exposure: ExposureStatistics, fingerprint: PhotoFingerprint, exposureTime: Duration, fingerprintTime: Duration)
        if threads > 1 {
            (blurred, measured) = ConcurrentPair.run(blur, figures)
        } else {
            blurred = blur()
            measured = figures()
        }
        let (statistics, scales, blurTime) = blurred
        let (exposure, fingerprint, exposureTime, fingerprintTime) = measured
        return BlurMeasurement(
            statistics: statistics,
            blurScore: scales.score,
            scales: scales,
            analysisWidth: plane.width,
            analysisHeight: plane.height,
            decodeScale: plan.scale,
            decodeSeconds: (decodeAndLuma - lumaTime).seconds,
            lumaSeconds: lumaTime.seconds,
            blurSeconds: blurTime.seconds,
            exposure: exposure,
            fingerprint: fingerprint,
            exposureSeconds: exposureTime.seconds,
            fingerprintSeconds: fingerprintTime.seconds,
            hasFinerPlane: finer != nil
        )
    }
}
