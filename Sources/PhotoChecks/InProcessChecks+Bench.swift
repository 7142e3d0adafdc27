import PhotoFormat
import VipsDecoder

extension InProcessChecks {
    /// Decodes only the luma of a JPEG at DCT scale 1/8 and discards the rows: the cost of
    /// entropy decoding, below which no JPEG pipeline can go. `bench` times it beside the checks.
    ///
    /// - Returns: the decoded geometry.
    /// - Throws: `DecodeFailure` for anything that is not a JPEG libjpeg decodes.
    public func decodeJPEGLumaFloor(_ bytes: UnsafeRawBufferPointer) throws(DecodeFailure) -> PixelGeometry {
        try decoder.decodeJPEGLumaFloor(bytes)
    }

    /// How the photo in `bytes` would be decoded at the analysis scale (which decoder, at what
    /// scale), or nil when its header cannot be read: what `bench` reports per photo.
    public func plan(for bytes: UnsafeRawBufferPointer) -> DecodePlan? {
        try? decoder.open(bytes).plan(targetShortSide: settings.analysisScale.targetShortestSide)
    }
}
