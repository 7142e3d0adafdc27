/// What happens to a photo when the content check cannot give an answer.
package enum ContentCheckPolicy: String, Sendable, CaseIterable {
    /// No content check at all (the default when no provider is configured).
    case off
    /// An error lets the photo pass; `details.content` and the metrics say so.
    case failOpen = "fail-open"
    /// An error fails the photo with `content_check_unavailable`.
    case failClosed = "fail-closed"
}
