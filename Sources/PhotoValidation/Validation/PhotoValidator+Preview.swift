import PhotoFormat

extension PhotoValidator {
    /// Validates the photo and, when it passed every check and `previews` is given, encodes a
    /// preview JPEG within those bounds, on the same (worker) thread, from the same decode for JPEG and HEIC.
    /// The validator does not know what the preview is for (the content check asks for it). The
    /// fingerprint is made, and in the answer, only with `fingerprint`. `deadline` and
    /// `waitingPhotos` are the job's (see `PhotoDecoding.validate`).
    ///
    /// The preview's cost is `details.timings_ms.content_preview` and is part of the total. A
    /// preview that cannot be made is returned as an error for its user to judge: the
    /// photo itself decoded, so it is not `invalid_image`.
    public func validate(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewBounds?,
        fingerprint: Bool = true,
        deadline: ContinuousClock.Instant? = nil,
        waitingPhotos: Int = 0
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        decoding.validate(bytes, as: photoType, previews: previews, evenIfFailed: false, fingerprint: fingerprint, deadline: deadline, waitingPhotos: waitingPhotos)
    }

    /// Validates the photo and makes its preview whether or not it passed (unless it did not
    /// decode): what `bench --content-preview` times and `evaluate-content` shows the classifier.
    public func validateAndPreview(
        _ bytes: UnsafeRawBufferPointer,
        as photoType: PhotoType,
        previews: PreviewBounds,
        deadline: ContinuousClock.Instant? = nil
    ) -> (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?) {
        decoding.validate(bytes, as: photoType, previews: previews, evenIfFailed: true, fingerprint: true, deadline: deadline, waitingPhotos: 0)
    }
}
