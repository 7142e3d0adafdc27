import BlurMetrics
import PhotoFormat
import PhotoValidation

extension InProcessChecks {
    /// What a decode by `plan` of a photo with `header` and its measurement at `scale` hold at once,
    /// before the strips a second thread adds: what these checks reserve from the decode memory
    /// budget, by the formula the daemon's least need is made with (`DecodeMemory`).
    static func memoryNeed(_ plan: DecodePlan, header: ImageHeader, scale: AnalysisScale) -> Int {
        DecodeMemory.need(decoderBytes: plan.estimatedBytes, width: header.storedWidth, height: header.storedHeight, scale: scale)
    }
}
