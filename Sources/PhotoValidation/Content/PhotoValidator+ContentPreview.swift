import VipsDecoder

extension PhotoValidator {
    /// Validates the photo and, when it passed every check so far and `previews` is given, makes
    /// the preview JPEG a content classifier sees, on the same (worker) thread.
    ///
    /// The preview's cost is `details.timings_ms.content_preview` and is part of the total. A
    /// preview that cannot be made is returned as an error for the content policy to judge: the
    /// photo itself decoded, so it is not `invalid_image`.
    public func validate(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewEncoder?
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        if let isolation {
            return isolation.validate(bytes, as: photoType, previews: previews)
        }
        let output = validate(bytes, as: photoType)
        guard let previews, output.passed, let format = output.details.format.flatMap(ImageFormat.init(rawValue:)) else {
            return (output, nil)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let preview = Result { () throws(DecodeFailure) in try previews.preview(of: bytes, format: format) }
        let milliseconds = (clock.now - start).milliseconds
        var details = output.details
        details.timingsMs.contentPreview = milliseconds
        details.timingsMs.total += milliseconds
        return (output.replacingDetails(details), preview)
    }
}
