import PhotoFormat
import PhotoValidation

extension ContentClassifier {
    /// The preview bounds a validation of a `photoType` photo hands its decode, so that a photo
    /// which passes comes back with its preview from the same decode; nil when this type is not checked.
    package func previewBounds(for photoType: PhotoType) -> PreviewBounds? {
        isEnabled(for: photoType) ? previews : nil
    }

    /// Runs the content check on a validated photo when it has a preview; otherwise returns its
    /// answer unchanged.
    package func finish(_ prepared: PreparedPhoto) async -> (output: ValidatePhotoOutput, result: ContentCheckResult?) {
        guard let preview = prepared.preview else { return (prepared.output, nil) }
        let (output, result) = await apply(to: prepared.output, preview: preview, digest: prepared.digest)
        return (output, result)
    }
}
