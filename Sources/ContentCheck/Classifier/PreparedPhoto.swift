import PhotoFormat
import PhotoValidation

/// What the worker thread hands to the request's task: the answer of the synchronous checks and,
/// when the content check is to run, the preview (or why it could not be made) and the digest.
/// Made on the worker from `PhotoValidator.validate(_:as:previews:)`'s answer, with the bounds
/// from `ContentClassifier.previewBounds(for:)`; `ContentClassifier.finish(_:)` completes it.
package struct PreparedPhoto: Sendable {
    /// The answer of decode, resolution and blur (with the preview's time).
    package let output: ValidatePhotoOutput
    /// The preview for the classifier, or nil when the content check does not run for this photo.
    package let preview: Result<PreviewImage, DecodeFailure>?
    /// The SHA-256 of the uploaded bytes (the cache key's first part), empty without a preview.
    package let digest: String

    /// Creates a prepared photo.
    package init(output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, digest: String) {
        self.output = output
        self.preview = preview
        self.digest = digest
    }

    /// The validation of `bytes` with its preview, if any, and the file's digest: `knownDigest`
    /// when the caller has hashed the file already (so a file is hashed once), else taken here
    /// only when there is a preview to check. Call it on the worker thread that validated.
    package init(_ validated: (output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?),
                of bytes: UnsafeRawBufferPointer, knownDigest: String? = nil) {
        self.init(output: validated.output, preview: validated.preview,
                  digest: validated.preview == nil ? "" : knownDigest ?? ContentCache.digest(of: bytes))
    }
}
