/// The scale at which blur is measured: the score only means something at one fixed scale.
public enum AnalysisScale: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Measure the pixels as decoded, with no resampling (for parity with OpenCV).
    case native
    /// Resample so the shortest side is this many pixels; smaller images are measured as they are.
    case shortestSide(Int)

    /// The default: shortest side 1024 px, as the gateway measures.
    public static let `default` = AnalysisScale.shortestSide(1024)

    /// Parses `native` or a positive pixel count.
    public init?(argument: String) {
        if argument.lowercased() == "native" {
            self = .native
        } else if let size = Int(argument), size >= 16 {
            self = .shortestSide(size)
        } else {
            return nil
        }
    }

    /// `native` or the pixel count.
    public var description: String {
        switch self {
        case .native: "native"
        case .shortestSide(let size): String(size)
        }
    }

    /// The target shortest side, or nil at native scale.
    public var targetShortestSide: Int? {
        switch self {
        case .native: nil
        case .shortestSide(let size): size
        }
    }

    /// The shortest side a photo that failed at this scale is decoded at again (nil: native): more
    /// than twice the analysis plane's, so that the finer plane kept beside it (`AnalysisPlaneBuilder`)
    /// holds the detail that a decode scaled down to the analysis size folds away (a JPEG decoded
    /// at 4/8 turns a 4 px pattern into a 2 px one, which nothing can tell from flat grey; so does
    /// a 4096 px one decoded at exactly twice, where 5/8 keeps it at 2.5 px). No larger: at its own
    /// size a shaken, noisy photo's grain reads as detail.
    public var decodeShortestSide: Int? {
        targetShortestSide.map { 2 * $0 + 1 }
    }

    /// The size at which an image of `width` x `height` is measured; never larger than the image.
    public func analysisSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard let target = targetShortestSide, min(width, height) > target else {
            return (width, height)
        }
        if width <= height {
            return (target, max(1, Int((Double(height) * Double(target) / Double(width)).rounded())))
        }
        return (max(1, Int((Double(width) * Double(target) / Double(height)).rounded())), target)
    }
}
