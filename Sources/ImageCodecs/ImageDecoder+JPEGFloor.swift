import PhotoFormat
import PhotoStructure

extension ImageDecoder {
    /// Decodes only the luma of a JPEG at DCT scale `scaleNumerator`/8 and discards the rows: at the
    /// scale the analysis plane needs (3/8 for an 18 MP photo judged at 1024 px), the least any
    /// pipeline judging at that size must decode. `bench` times it beside the pipeline.
    ///
    /// - Returns: the decoded geometry.
    /// - Throws: `DecodeFailure` for anything that is not a JPEG libjpeg decodes.
    public func decodeJPEGLumaFloor(_ bytes: UnsafeRawBufferPointer, scaleNumerator: Int) throws(DecodeFailure) -> PixelGeometry {
        guard FormatSniffer.sniff(bytes) == .format(.jpeg) else {
            throw DecodeFailure(.unsupportedFormat, "the luma decoding floor is measured on JPEGs only")
        }
        let decoder = try LibJPEGDecoder(bytes: bytes, memoryLimit: memoryLimit, maximumScans: costCaps.jpegScans)
        var geometry = PixelGeometry(width: 0, height: 0, bands: 0)
        do {
            _ = try decoder.decode(luma: true, scaleNumerator: scaleNumerator, rowsPerStrip: 64) { geometry = $0 } body: { _, _, _, _ in }
        } catch let failure as DecodeFailure {
            throw failure
        } catch {
            throw DecodeFailure(.corruptPixels, "decoding stopped: \(error)")
        }
        return geometry
    }
}
