import BlurMetrics
import PhotoStructure

/// The memory one photo's decode and measurement hold at once, in bytes: what the decoder holds
/// plus what the analysis holds (`PlaneMeasurement.estimatedBytes`). Both sides of the worker wall
/// count with it: the daemon reserves `least(_:scale:)` from the header's declared size before a
/// worker takes the photo (the format's least decoder memory, `ImageFormatProfile.leastDecoderBytes`),
/// the worker `need(decoderBytes:width:height:scale:)` once its decoder has planned the decode
/// (`DecodePlan.estimatedBytes`). The analysis part is this one formula on both sides, and the
/// profile's part is never more than a plan's (`DecodeMemoryAgreementTests`), so a photo the
/// daemon refuses for memory the worker would refuse too.
public enum DecodeMemory {
    /// What a decode holding `decoderBytes` and the measurement of a photo stored `width` x
    /// `height` at `scale` need together: what the worker reserves.
    public static func need(decoderBytes: Int, width: Int, height: Int, scale: AnalysisScale) -> Int {
        decoderBytes + analysisBytes(width: width, height: height, scale: scale)
    }

    /// The least a photo of `size` needs: its format's least decoder memory and the measurement
    /// (a row strip, a lossy WebP's RGB canvas as libwebp fills it, the HEVC luma plane). What the
    /// daemon reserves before a worker takes the photo.
    public static func least(_ size: DeclaredSize, scale: AnalysisScale) -> Int {
        need(decoderBytes: size.format.profile.leastDecoderBytes(width: size.width, height: size.height), width: size.width, height: size.height, scale: scale)
    }

    /// What the measurement of a photo stored `width` x `height` at `scale` holds beside the decoder.
    public static func analysisBytes(width: Int, height: Int, scale: AnalysisScale) -> Int {
        PlaneMeasurement.estimatedBytes(width: width, height: height, scale: scale)
    }
}
