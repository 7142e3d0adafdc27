import BlurMetrics
import BlurModel
import LumaAnalysis
import PhotoFormat
import PhotoStructure

/// The thresholds and limits the checks apply; resolved once, then immutable. Codable, so it
/// crosses the worker wall whole (`WorkerSetup`).
public struct ValidationSettings: Sendable, Equatable, Codable {
    /// Minimum shortest side of a room photo, in pixels.
    public var roomMinimumShortSide: Int = 1024
    /// Minimum shortest side of an inspiration photo, in pixels.
    public var inspirationMinimumShortSide: Int = 400
    /// A room photo whose blur score is below this is `blurry`: one step under the threshold with
    /// the best balanced accuracy on the tuning part of `datasets/make-labelled-set` (24.97), so the
    /// softest sharp real room known (24.7) passes (README, Tuning).
    public var roomBlurThreshold: Double = 24
    /// An inspiration photo whose blur score is below this is `blurry`: under the crossing-corrected
    /// score's threshold of best balanced accuracy on the tuning parts of the labelled and the
    /// independent sets (23.56, issue 35), as the room default is, so that the softest sharp real
    /// photo known (`small-cat.png`, 22.55) passes; held aside the balanced accuracy is the same
    /// (0.986; docs/tuning.md).
    public var inspirationBlurThreshold: Double = 22
    /// Which measure decides `blurry` (`blur.judge`): the blur score (the default for now) or the
    /// blur model's probability (issue 64).
    public var blurJudge: BlurJudge = .score
    /// With `blurJudge` `model`, a room photo whose blur probability is at least this is `blurry`:
    /// the shipped model's `threshold_room` by default.
    public var roomBlurProbabilityThreshold: Double = BlurModel.shipped.thresholdRoom
    /// With `blurJudge` `model`, an inspiration photo whose blur probability is at least this is
    /// `blurry`: the shipped model's `threshold_inspiration` by default.
    public var inspirationBlurProbabilityThreshold: Double = BlurModel.shipped.thresholdInspiration
    /// The share of tiles with most detail a room's score judges: a room must be sharp across
    /// the frame, so a tenth of it.
    public static let roomStrongestShare = 0.10
    /// The share for inspiration photos: an inspiration photo passes when some region of it is
    /// sharp, and a crisp subject on a soft background (bokeh, macro, raindrops) may cover only a
    /// few percent of the frame, so the sharpest hundredth of it (best on the tuning part of the
    /// labelled set: README, Tuning).
    public static let inspirationStrongestShare = 0.01
    /// How a room's score weighs the same measure on the plane halved (`OrientedDetail.score(of:strongestShare:coarseWeight:)`):
    /// the score is the smaller of the two, so a room also fails when its half-scale score is under
    /// the threshold divided by this (24 / 0.83, about 28.9). Hand shake that dwells leaves a sharp
    /// ghost the full scale takes for sharpness; at half scale the smear dominates. Chosen on the
    /// tuning part of the labelled set: the middle of the interval of best balanced accuracy
    /// (half-scale 26.1 to 31.4; README, Tuning). Inspiration photos are judged by their sharpest
    /// region only and gain nothing from it (0: off).
    public static let roomCoarseWeight = 0.83
    /// Whether an inspiration photo's score judges each tile's curvature against the share a
    /// uniformly sharp structure of the tile's own edge directions keeps along each orientation
    /// (`OrientedDetail.crossingCorrectedScore`; issue 35, part 2). Rooms keep the weakest-orientation
    /// score their thresholds were tuned on.
    public static let inspirationCrossingCorrected = true
    /// The exposure check's thresholds, and whether it runs (`exposure.*`).
    public var exposure = ExposureRule()
    /// Whether the upload route and `validate` compare a project's photos (`duplicates.check`).
    public var duplicateCheck = true
    /// When two photos of a project are one photo (`duplicates.max_distance`, `duplicates.min_matches`, `duplicates.min_correlation`).
    public var duplicateRule = DuplicateRule.default
    /// Photos that declare more pixels than this are refused from the header.
    public var pixelLimit: Int = DeclaredSize.defaultPixelLimit
    /// The scale blur is measured at.
    public var analysisScale: AnalysisScale = .default
    /// What a file's structure may ask of a decoder (segments, scans, frames, NAL units, metadata).
    public var decodeCostCaps = DecodeCostCaps()
    /// Bytes that decodes in flight may hold at once (estimated from headers); larger decodes wait.
    /// By default what a photo at the default pixel limit needs (`defaultDecodeMemoryBudget(pixelLimit:)`).
    public var decodeMemoryBudget: Int = ValidationSettings.defaultDecodeMemoryBudget(pixelLimit: DeclaredSize.defaultPixelLimit)
    /// Where decoders run: in sandboxed worker processes (the default) or in this process. Only
    /// the commands and the daemon read it; `PhotoValidator(settings:)` (`PhotoChecks`) always decodes in-process.
    public var decodeIsolation: DecodeIsolationMode = .process
    /// The user decode workers become when the daemon runs as root (`decode_worker_user`): a
    /// name, or `uid[:gid]`.
    public var decodeWorkerUser = "nobody"
    /// The executable decode workers are started from (`decode_worker_executable`): this program.
    public var decodeWorkerExecutable: String = "/proc/self/exe"
    /// Tests only (`decode_worker_test_requests`, hidden from `--help`): workers crash on a photo whose bytes
    /// begin with `PV-TEST-CRASH`, so a daemon test can show that a crash costs one photo.
    public var decodeWorkerTestRequests = false

    /// The built-in defaults.
    public init() {}

    /// The decode memory budget that admits every photo `pixelLimit` admits, whole MiB: nine bytes a
    /// pixel, what the most demanding decode holds (a lossless WebP with alpha: libwebp's ARGB
    /// picture and the RGBA buffer it fills, `DecodePlan.largestBytesPerPixel`: 8; 790 MiB estimated,
    /// 763 measured at 16383x6103) and one more for the analysis planes, the preview's copy and a
    /// margin; never under 128 MiB. (A 16-bit interlaced PNG or an animated WebP near the limit may
    /// need more: raise `decode_memory_mib` for those.)
    public static func defaultDecodeMemoryBudget(pixelLimit: Int) -> Int {
        let bytesPerPixel = DecodePlan.largestBytesPerPixel + 1
        let mebibytes = (pixelLimit.multipliedReportingOverflow(by: bytesPerPixel).partialValue + (1 << 20) - 1) >> 20
        return max(128, min(mebibytes, 65_536)) << 20
    }

    /// The minimum shortest side for `photoType`.
    public func minimumShortSide(for photoType: PhotoType) -> Int {
        switch photoType {
        case .room: roomMinimumShortSide
        case .inspiration: inspirationMinimumShortSide
        }
    }

    /// The share of most detailed tiles the blur score of `photoType` judges.
    public func blurStrongestShare(for photoType: PhotoType) -> Double {
        switch photoType {
        case .room: Self.roomStrongestShare
        case .inspiration: Self.inspirationStrongestShare
        }
    }

    /// The weight of the half-scale score for `photoType` (0: not measured).
    public func blurCoarseWeight(for photoType: PhotoType) -> Double {
        switch photoType {
        case .room: Self.roomCoarseWeight
        case .inspiration: 0
        }
    }

    /// Whether the blur score of `photoType` judges each tile by the directions of its own edges
    /// (`OrientedDetail.crossingCorrectedScore`).
    public func blurCrossingCorrected(for photoType: PhotoType) -> Bool {
        switch photoType {
        case .room: false
        case .inspiration: Self.inspirationCrossingCorrected
        }
    }

    /// The blur threshold for `photoType`.
    public func blurThreshold(for photoType: PhotoType) -> Double {
        switch photoType {
        case .room: roomBlurThreshold
        case .inspiration: inspirationBlurThreshold
        }
    }

    /// The blur probability threshold for `photoType`.
    public func blurProbabilityThreshold(for photoType: PhotoType) -> Double {
        switch photoType {
        case .room: roomBlurProbabilityThreshold
        case .inspiration: inspirationBlurProbabilityThreshold
        }
    }
}
