import PhotoFormat

extension DecodeCostCaps {
    /// Refuses `bytes`, sniffed as `format`, when their structure is past a cap; HEIC's caps are
    /// checked by its container reader, which walks its NAL units anyway.
    ///
    /// - Throws: `DecodeFailure` `.costlyStructure` naming the cap.
    public func check(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(DecodeFailure) {
        let refusal: String?
        switch format {
        case .jpeg: refusal = JPEGStructure(bytes, stoppingPast: self).refusal(self)
        case .png: refusal = PNGStructure(bytes, stoppingPast: self).refusal(self)
        case .webp: refusal = WebPStructure(bytes, stoppingPast: self).refusal(self)
        case .heif: refusal = nil
        }
        if let refusal {
            throw DecodeFailure(.costlyStructure, refusal)
        }
    }
}
