import BlurMetrics
import VipsDecoder

/// The thresholds and limits the checks apply; resolved once, then immutable.
public struct ValidationSettings: Sendable, Equatable {
    /// Minimum shortest side of a room photo, in pixels.
    public var roomMinimumShortSide: Int = 1024
    /// Minimum shortest side of an inspiration photo, in pixels.
    public var inspirationMinimumShortSide: Int = 400
    /// A room photo whose blur score is below this is `blurry`: the threshold with the best
    /// balanced accuracy (0.960) on the labelled set of `scripts/make-labelled-set` (README, Tuning).
    public var roomBlurThreshold: Double = 29
    /// An inspiration photo whose blur score is below this is `blurry`. The labelled set has no
    /// inspiration-specific labels, and blur is the same defect whatever the photo shows.
    public var inspirationBlurThreshold: Double = 29
    /// Photos that declare more pixels than this are refused from the header.
    public var pixelLimit: Int = ImageDecoder.defaultPixelLimit
    /// The scale blur is measured at.
    public var analysisScale: AnalysisScale = .default
    /// Bytes that decodes in flight may hold at once (estimated from headers); larger decodes wait.
    public var decodeMemoryBudget: Int = 128 << 20

    /// The built-in defaults.
    public init() {}

    /// The minimum shortest side for `photoType`.
    public func minimumShortSide(for photoType: PhotoType) -> Int {
        switch photoType {
        case .room: roomMinimumShortSide
        case .inspiration: inspirationMinimumShortSide
        }
    }

    /// The blur threshold for `photoType`.
    public func blurThreshold(for photoType: PhotoType) -> Double {
        switch photoType {
        case .room: roomBlurThreshold
        case .inspiration: inspirationBlurThreshold
        }
    }
}
