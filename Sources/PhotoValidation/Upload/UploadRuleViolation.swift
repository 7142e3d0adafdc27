/// A gateway upload rule an upload broke.
public enum UploadRuleViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The project id is not 1 to 256 of `A-Z a-z 0-9 . _ : -` (or is `.` or `..`).
    case projectID
    /// The photo id is not 1 to 256 of `A-Z a-z 0-9 . _ : -` (or is `.` or `..`).
    case photoID
    /// A note on a room photo.
    case noteNotAllowed
    /// A note longer than `maximum` characters.
    case noteTooLong(maximum: Int)
    /// A storage key longer than `maximum` bytes.
    case storageKeyTooLong(maximum: Int)

    /// What is wrong, for the operator.
    public var description: String {
        switch self {
        case .projectID: "project_id must be 1 to 256 of A-Z a-z 0-9 . _ : - (and not . or ..)"
        case .photoID: "photo_id must be 1 to 256 of A-Z a-z 0-9 . _ : - (and not . or ..)"
        case .noteNotAllowed: "notes are only allowed on inspiration photos"
        case .noteTooLong(let maximum): "the note is longer than \(maximum) characters"
        case .storageKeyTooLong(let maximum): "storage_key must be at most \(maximum) bytes"
        }
    }
}
