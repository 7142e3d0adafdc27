import PhotoValidation

extension ContentClassifier {
    /// Validates `bytes` with `validator` and, when this photo type is checked and the photo has
    /// passed so far, makes its preview and takes its digest: `digest` when the caller has already
    /// hashed the file (a keyed upload), so a file is hashed once. Synchronous: call it on a worker thread.
    public func prepare(_ bytes: UnsafeRawBufferPointer, as photoType: PhotoType, validator: PhotoValidator, digest: String? = nil) -> PreparedPhoto {
        let (output, preview) = validator.validate(bytes, as: photoType, previews: isEnabled(for: photoType) ? previews : nil)
        return PreparedPhoto(output: output, preview: preview, digest: preview == nil ? "" : digest ?? ContentCache.digest(of: bytes))
    }

    /// Runs the content check on a prepared photo when it has a preview; otherwise returns its
    /// answer unchanged.
    public func finish(_ prepared: PreparedPhoto) async -> (output: ValidatePhotoOutput, result: ContentCheckResult?) {
        guard let preview = prepared.preview else { return (prepared.output, nil) }
        let (output, result) = await apply(to: prepared.output, preview: preview, digest: prepared.digest)
        return (output, result)
    }
}
