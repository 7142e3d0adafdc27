import LumaAnalysis

/// The figures measured for one photo (the `details` object of the answer).
public struct ValidationDetails: Sendable, Codable, Equatable {
    /// The photo type the checks used.
    public var photoType: PhotoType
    /// The decoded format, when the header could be read.
    public var format: String?
    /// Displayed width, after EXIF orientation.
    public var width: Int?
    /// Displayed height, after EXIF orientation.
    public var height: Int?
    /// The EXIF orientation tag (1 to 8).
    public var orientation: Int?
    /// The minimum shortest side for this photo type.
    public var minimumShortSide: Int
    /// The figure compared with the blur threshold.
    public var blurScore: Double?
    /// The plane `blurScore` was measured on: `analysis`, or `finer` when resampling to the
    /// analysis plane lost the photo's detail (a pattern of a few pixels' period).
    public var blurScale: String?
    /// The analysis plane's own score, when `blurScore` comes from the finer plane.
    public var analysisBlurScore: Double?
    /// The share of the finer plane's gradient energy the analysis plane kept, when compared.
    public var blurDetailRetained: Double?
    /// The threshold `blurScore` was compared with.
    public var blurThreshold: Double
    /// The variance of the Laplacian of the whole analysis plane.
    public var laplacianVariance: Double?
    /// The blur model's probability that the photo is blurred (issue 64): the mean of its sharpest
    /// tiles' on the analysis plane; nil when the plane is under one tile in a side.
    public var blurProbability: Double?
    /// The probability threshold for this photo type: with `blur.judge = model`, `blurry` when
    /// `blurProbability` is at least this.
    public var blurProbabilityThreshold: Double?
    /// The tiles `blurProbability` came from, on the first decode's plane, for the report pages;
    /// not in the answer's JSON (not a `CodingKeys` case), so it is nil in an answer decoded from it.
    public var blurTileMap: BlurTileMap? = nil
    /// Width of the plane blur was measured on.
    public var analysisWidth: Int?
    /// Height of the plane blur was measured on.
    public var analysisHeight: Int?
    /// The decode scale (JPEG DCT scaling M/8, such as 0.375; 1 for other formats).
    public var decodeScale: Double?
    /// The exposure figures the exposure check judged.
    public var exposure: ExposureStatistics?
    /// The photo's fingerprint (base64), which the duplicate check compares within a project; a
    /// gateway may keep it to compare photos itself.
    public var fingerprint: String?
    /// The id of the earlier photo of the project this one duplicates (`duplicate_photo`).
    public var duplicateOf: String?
    /// Why the photo is `invalid_image`: a stable reason code such as `pixel_limit_exceeded`.
    public var error: String?
    /// An operator-facing explanation of `error`.
    public var errorDetail: String?
    /// What the content check did, when it ran.
    public var content: ContentCheckDetails?
    /// Time spent per stage, in milliseconds.
    public var timingsMs: StageTimings

    /// Creates details with nothing measured yet.
    public init(photoType: PhotoType, minimumShortSide: Int, blurThreshold: Double) {
        self.photoType = photoType
        self.minimumShortSide = minimumShortSide
        self.blurThreshold = blurThreshold
        self.timingsMs = StageTimings()
    }

    enum CodingKeys: String, CodingKey {
        case photoType = "photo_type"
        case format, width, height, orientation
        case minimumShortSide = "minimum_short_side"
        case blurScore = "blur_score"
        case blurScale = "blur_scale"
        case analysisBlurScore = "analysis_blur_score"
        case blurDetailRetained = "blur_detail_retained"
        case blurThreshold = "blur_threshold"
        case laplacianVariance = "laplacian_variance"
        case blurProbability = "blur_probability"
        case blurProbabilityThreshold = "blur_probability_threshold"
        case analysisWidth = "analysis_width"
        case analysisHeight = "analysis_height"
        case decodeScale = "decode_scale"
        case exposure, fingerprint
        case duplicateOf = "duplicate_of"
        case error
        case errorDetail = "error_detail"
        case content
        case timingsMs = "timings_ms"
    }
}
