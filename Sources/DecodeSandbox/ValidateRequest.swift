import PhotoFormat
import PhotoValidation

/// One photo for a worker to validate; its bytes follow the header.
package struct ValidateRequest: Codable, Sendable {
    /// The type the photo is checked as.
    package var photoType: PhotoType
    /// The preview wanted, if any: its bounds, coded as `maximumLongEdge`, `maximumPixels`, `quality`.
    package var preview: PreviewBounds?
    /// True when the preview is wanted whatever the verdict (`bench`, `evaluate-content`).
    package var previewEvenIfFailed: Bool? = nil
    /// When set, the photo is this many bytes at the start of the shared memory, not in the frame.
    package var sharedCount: Int?
    /// The threads the photo's decode may use: more than one only while other cores are idle.
    package var threads: Int? = nil
    /// False when no fingerprint is to be made (no duplicate check nor caller reads it); absent means true.
    package var fingerprint: Bool? = nil
}
