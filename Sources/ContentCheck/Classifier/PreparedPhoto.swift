import PhotoValidation
import VipsDecoder

/// What the worker thread hands to the request's task: the answer of the synchronous checks and,
/// when the content check is to run, the preview (or why it could not be made) and the digest.
public struct PreparedPhoto: Sendable {
    /// The answer of decode, resolution and blur (with the preview's time).
    public let output: ValidatePhotoOutput
    /// The preview for the classifier, or nil when the content check does not run for this photo.
    public let preview: Result<PreviewImage, DecodeFailure>?
    /// The SHA-256 of the uploaded bytes (the cache key's first part), empty without a preview.
    public let digest: String

    /// Creates a prepared photo.
    public init(output: ValidatePhotoOutput, preview: Result<PreviewImage, DecodeFailure>?, digest: String) {
        self.output = output
        self.preview = preview
        self.digest = digest
    }
}
