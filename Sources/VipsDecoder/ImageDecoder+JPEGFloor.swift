import PhotoFormat
import PhotoStructure

extension ImageDecoder {
    /// Decodes only the luma of a JPEG at DCT scale 1/8 and discards the rows: the cost of
    /// entropy decoding, below which no JPEG pipeline can go. `bench` times it beside the pipeline.
    ///
    /// - Returns: the decoded geometry.
    /// - Throws: `DecodeFailure` for anything that is not a JPEG libjpeg decodes.
    public func decodeJPEGLumaFloor(_ bytes: UnsafeRawBufferPointer) throws(DecodeFailure) -> PixelGeometry {
        guard FormatSniffer.sniff(bytes) == .format(.jpeg) else {
            throw DecodeFailure(.unsupportedFormat, "the entropy-decoding floor is measured on JPEGs only")
        }
        let decoder = try LibJPEGDecoder(bytes: bytes, memoryLimit: memoryLimit, maximumScans: costCaps.jpegScans)
        var geometry = PixelGeometry(width: 0, height: 0, bands: 0)
        do {
            _ = try decoder.decode(luma: true, scaleNumerator: 1, rowsPerStrip: 64) { geometry = $0 } body: { _, _, _, _ in }
        } catch let failure as DecodeFailure {
            throw failure
        } catch {
            throw DecodeFailure(.corruptPixels, "decoding stopped: \(error)")
        }
        return geometry
    }
}
