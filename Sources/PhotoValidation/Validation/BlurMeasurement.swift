import BlurMetrics
import LumaAnalysis
import PhotoFormat
import VipsDecoder

/// The blur figures of one photo and the time each stage took.
public struct BlurMeasurement: Sendable, Equatable {
    /// Exact Laplacian sums over the analysis plane.
    public let statistics: LaplacianStatistics
    /// The decision score: edge sharpness along the weakest orientation (`OrientedDetail.score`),
    /// on the plane where the photo's detail is (`ScaleAwareBlurScore`).
    public let blurScore: Double
    /// Which plane the score comes from, its analysis-plane score and the detail kept.
    public let scales: ScaleAwareBlurScore
    /// Width of the analysis plane.
    public let analysisWidth: Int
    /// Height of the analysis plane.
    public let analysisHeight: Int
    /// The decode scale used (JPEG DCT scaling M/8; 1 for other formats).
    public let decodeScale: Double
    /// Seconds in libvips decoding.
    public let decodeSeconds: Double
    /// Seconds in grey conversion and resampling.
    public let lumaSeconds: Double
    /// Seconds in the Laplacian.
    public let blurSeconds: Double
    /// The exposure figures of the analysis plane.
    public let exposure: ExposureStatistics
    /// The analysis plane's fingerprint, for the duplicate check.
    public let fingerprint: PhotoFingerprint
    /// Seconds in the exposure figures.
    public let exposureSeconds: Double
    /// Seconds in the fingerprint.
    public let fingerprintSeconds: Double
    /// True when the decoded pixels were finer than the analysis plane, so a finer plane was kept
    /// to compare it with.
    public let hasFinerPlane: Bool

    /// This measurement with the decode, luma and blur time of `other` added: the figures of a
    /// photo measured twice, once at each decode scale.
    public func addingTime(of other: BlurMeasurement) -> BlurMeasurement {
        BlurMeasurement(
            statistics: statistics, blurScore: blurScore, scales: scales, analysisWidth: analysisWidth, analysisHeight: analysisHeight,
            decodeScale: decodeScale, decodeSeconds: decodeSeconds + other.decodeSeconds, lumaSeconds: lumaSeconds + other.lumaSeconds,
            blurSeconds: blurSeconds + other.blurSeconds, exposure: exposure, fingerprint: fingerprint,
            exposureSeconds: exposureSeconds + other.exposureSeconds, fingerprintSeconds: fingerprintSeconds + other.fingerprintSeconds,
            hasFinerPlane: hasFinerPlane
        )
    }

    /// The global Laplacian variance.
    public var laplacianVariance: Double { statistics.variance }

    /// Bytes the analysis of a `width` x `height` photo at `scale` holds: the plane, its denoised
    /// copy, the finer plane kept beside it when the photo is larger (at most nine times the plane's
    /// pixels) and the working rows, with margin.
    public static func estimatedBytes(width: Int, height: Int, scale: AnalysisScale) -> Int {
        let size = scale.analysisSize(width: width, height: height)
        let finer = size == (width, height) ? (width: 0, height: 0)
            : AnalysisPlaneBuilder.finerSize(sourceWidth: width, sourceHeight: height, targetWidth: size.width, targetHeight: size.height)
        return size.width * size.height * 3 + finer.width * finer.height + max(width, height) * 64
    }

    /// Decodes `image` strip by strip as `plan` says into the analysis plane at `scale` and
    /// measures its blur, judging the `strongestShare` of tiles with most detail, and at half scale
    /// too with `coarseWeight` > 0. When the analysis-plane score is under `finerBelow` (the
    /// threshold) and the decoded pixels are finer than the plane, the finer plane is judged
    /// instead where the analysis plane lost its detail (`ScaleAwareBlurScore`). `crossingCorrected`
    /// judges each tile by the directions of its own edges (`OrientedDetail.crossingCorrectedScore`).
    ///
    /// - Throws: `DecodeFailure` when the pixels are truncated or corrupt.
    public static func measure(_ image: EncodedImage, plan: DecodePlan, scale: AnalysisScale, strongestShare: Double, coarseWeight: Double = 0,
                               finerBelow: Double = .infinity, crossingCorrected: Bool = false) throws(DecodeFailure) -> BlurMeasurement {
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
        let blurStart = clock.now
        let statistics = LaplacianVariance.statistics(of: plane)
        let finer = builder.finishFiner()
        let scales = ScaleAwareBlurScore.measure(analysis: plane, finer: finer, strongestShare: strongestShare,
                                                 coarseWeight: coarseWeight, finerBelow: finerBelow, crossingCorrected: crossingCorrected)
        let blurTime = clock.now - blurStart
        let exposureStart = clock.now
        let exposure = ExposureStatistics(of: plane)
        let fingerprintStart = clock.now
        let fingerprint = PhotoFingerprint(of: plane)
        let fingerprintTime = clock.now - fingerprintStart
        let exposureTime = fingerprintStart - exposureStart
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
