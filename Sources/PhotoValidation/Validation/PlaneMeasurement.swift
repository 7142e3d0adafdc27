import BlurMetrics
import BlurModel
import LumaAnalysis

/// What one decode's analysis plane measured: the blur score, the exposure figures and the
/// duplicate fingerprint, with the time each stage took.
public struct PlaneMeasurement: Sendable, Equatable {
    /// Exact Laplacian sums over the analysis plane.
    public let statistics: LaplacianStatistics
    /// The decision score: edge sharpness along the weakest orientation (`OrientedDetail.score`),
    /// on the plane where the photo's detail is (`ScaleAwareBlurScore`).
    public let blurScore: Double
    /// Which plane the score comes from, its analysis-plane score and the detail kept.
    public let scales: ScaleAwareBlurScore
    /// The blur model's estimate on the analysis plane (issue 64): the photo's probability of blur
    /// and its tiles; nil when the plane is under one tile in a side.
    public let blurModel: BlurModelEstimate?
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
    /// Seconds in the Laplacian, the blur score and the blur model.
    public let blurSeconds: Double
    /// The exposure figures of the analysis plane.
    public let exposure: ExposureStatistics
    /// The analysis plane's fingerprint, for the duplicate check; nil when none was asked for.
    public let fingerprint: PhotoFingerprint?
    /// Seconds in the exposure figures.
    public let exposureSeconds: Double
    /// Seconds in the fingerprint.
    public let fingerprintSeconds: Double
    /// True when the decoded pixels were finer than the analysis plane, so a finer plane was kept
    /// to compare it with.
    public let hasFinerPlane: Bool

    /// The figures as measured (by `measure`, in `PhotoChecks`, which decodes).
    package init(
        statistics: LaplacianStatistics, blurScore: Double, scales: ScaleAwareBlurScore, analysisWidth: Int, analysisHeight: Int,
        decodeScale: Double, decodeSeconds: Double, lumaSeconds: Double, blurSeconds: Double, exposure: ExposureStatistics,
        fingerprint: PhotoFingerprint?, exposureSeconds: Double, fingerprintSeconds: Double, hasFinerPlane: Bool, blurModel: BlurModelEstimate? = nil
    ) {
        self.statistics = statistics
        self.blurScore = blurScore
        self.scales = scales
        self.blurModel = blurModel
        self.analysisWidth = analysisWidth
        self.analysisHeight = analysisHeight
        self.decodeScale = decodeScale
        self.decodeSeconds = decodeSeconds
        self.lumaSeconds = lumaSeconds
        self.blurSeconds = blurSeconds
        self.exposure = exposure
        self.fingerprint = fingerprint
        self.exposureSeconds = exposureSeconds
        self.fingerprintSeconds = fingerprintSeconds
        self.hasFinerPlane = hasFinerPlane
    }

    /// This measurement with the decode, luma and blur time of `other` added: the figures of a
    /// photo measured twice, once at each decode scale.
    public func addingTime(of other: PlaneMeasurement) -> PlaneMeasurement {
        PlaneMeasurement(
            statistics: statistics, blurScore: blurScore, scales: scales, analysisWidth: analysisWidth, analysisHeight: analysisHeight,
            decodeScale: decodeScale, decodeSeconds: decodeSeconds + other.decodeSeconds, lumaSeconds: lumaSeconds + other.lumaSeconds,
            blurSeconds: blurSeconds + other.blurSeconds, exposure: exposure, fingerprint: fingerprint,
            exposureSeconds: exposureSeconds + other.exposureSeconds, fingerprintSeconds: fingerprintSeconds + other.fingerprintSeconds,
            hasFinerPlane: hasFinerPlane, blurModel: blurModel
        )
    }

    /// The global Laplacian variance.
    public var laplacianVariance: Double { statistics.variance }

    /// Bytes the analysis of a `width` x `height` photo at `scale` holds: the plane, its denoised
    /// copy, the finer plane kept beside it when the photo is larger (at most sixteen times the plane's
    /// pixels), the working rows, with margin, the plane magnified to 1024 px for a smaller photo,
    /// and the fingerprint's working planes
    /// (`PhotoFingerprint.estimatedBytes`), measured beside the blur score on a second thread.
    public static func estimatedBytes(width: Int, height: Int, scale: AnalysisScale) -> Int {
        let size = scale.analysisSize(width: width, height: height)
        let finer = size == (width, height) ? (width: 0, height: 0)
            : AnalysisPlaneBuilder.finerSize(sourceWidth: width, sourceHeight: height, targetWidth: size.width, targetHeight: size.height)
        // A photo under the label's size is scored on its plane magnified to it (`LumaPlane.magnified`):
        // that plane, its denoised copy and its half, at most 1024 x 1024 each.
        let magnified = max(width, height) < LumaPlane.displayLongSide ? LumaPlane.displayLongSide * LumaPlane.displayLongSide * 3 : 0
        return size.width * size.height * 3 + finer.width * finer.height + max(width, height) * 64 + magnified
            + PhotoFingerprint.estimatedBytes(planeWidth: size.width, planeHeight: size.height)
    }
}
