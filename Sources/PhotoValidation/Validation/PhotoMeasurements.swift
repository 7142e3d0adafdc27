import PhotoFormat

/// What the checks measured on one photo, before any threshold judged it: the header, why it did
/// not decode, and the figures of each decode. `PhotoValidator.judge(_:as:)` turns them into the
/// answer, the same code the validator runs after measuring, so the scores cache
/// (`validate --scores-cache`) can answer a re-run with other thresholds without decoding.
public struct PhotoMeasurements: Sendable, Codable, Equatable {
    /// The decoded format, when the header could be read.
    public var format: String?
    /// Displayed width, after EXIF orientation.
    public var width: Int?
    /// Displayed height, after EXIF orientation.
    public var height: Int?
    /// The EXIF orientation tag.
    public var orientation: Int?
    /// The shortest side the resolution check compares.
    public var shortestSide: Int?
    /// Why the photo did not decode (`DecodeFailure.Reason`'s raw value), when it did not.
    public var error: String?
    /// The explanation of `error`.
    public var errorDetail: String?
    /// The first decode's figures.
    public var first: PlaneFigures?
    /// The figures of the second decode at twice the analysis size, when one was made and measured.
    public var second: PlaneFigures?
    /// True when the second decode's outcome is known: the first score was under the threshold
    /// measured with, so it was made, tried or found impossible.
    public var secondSettled = false
    /// The blur threshold the photo was measured with.
    public var measuredBelow: Double

    /// Nothing measured yet, with `measuredBelow` as the blur threshold.
    public init(measuredBelow: Double) {
        self.measuredBelow = measuredBelow
    }

    /// True when the measurements depend only on the photo and the settings, so they may be kept:
    /// not a failure of the library or of time, which another attempt may not repeat.
    public var isDeterministic: Bool {
        guard let error else { return true }
        return ![DecodeFailure.Reason.libraryFailure, .decodeTimeout, .decoderCrashed, .decoderUnavailable].map(\.rawValue).contains(error)
    }
}
