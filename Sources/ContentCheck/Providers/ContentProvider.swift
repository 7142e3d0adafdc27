import NIOCore
import PhotoFormat
import PhotoValidation

/// A vision model behind some wire protocol that labels one preview JPEG.
package protocol ContentProvider: Sendable {
    /// The provider's name in details, logs and metrics (`anthropic`, `openai`).
    var name: String { get }
    /// The model asked.
    var model: String { get }

    /// Asks the model once (no retries) what `preview` shows, as a photo of `photoType`.
    ///
    /// - Throws: `ContentCheckError` for transport errors, HTTP errors, and answers that are not
    ///   the API's shape or not the schema's.
    func classify(_ preview: PreviewImage, as photoType: PhotoType, deadline: NIODeadline) async throws(ContentCheckError) -> ProviderAnswer
}
