import PhotoFormat

extension DecodeCostCaps {
    /// Refuses `bytes`, sniffed as `format`, when their structure is past a cap; HEIC's caps are
    /// checked by its container reader, which walks its NAL units anyway.
    ///
    /// - Throws: `DecodeFailure` `.costlyStructure` naming the cap.
    public func check(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(DecodeFailure) {
        if let refusal = format.profile.costRefusal(bytes, self) {
            throw DecodeFailure(.costlyStructure, refusal)
        }
    }
}
