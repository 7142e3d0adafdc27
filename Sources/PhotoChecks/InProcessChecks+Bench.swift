import ImageCodecs
import PhotoFormat

extension InProcessChecks {
    /// Decodes only the luma of a JPEG at DCT scale `scaleNumerator`/8 and discards the rows: at the
    /// scale the analysis plane needs (3/8 for an 18 MP photo judged at 1024 px), the least any
    /// pipeline judging at that size must decode. `bench` times it beside the checks.
    ///
    /// - Returns: the decoded geometry.
    /// - Throws: `DecodeFailure` for anything that is not a JPEG libjpeg decodes.
    public func decodeJPEGLumaFloor(_ bytes: UnsafeRawBufferPointer, scaleNumerator: Int) throws(DecodeFailure) -> PixelGeometry {
        try decoder.decodeJPEGLumaFloor(bytes, scaleNumerator: scaleNumerator)
    }

    /// How the photo in `bytes` would be decoded at the analysis scale (which decoder, at what
    /// scale), or nil when its header cannot be read: what `bench` reports per photo.
    public func plan(for bytes: UnsafeRawBufferPointer) -> DecodePlan? {
        try? decoder.open(bytes).plan(targetShortSide: settings.analysisScale.targetShortestSide)
    }
}
