/// What the gateway's upload carries besides the file, checked by the gateway's own rules: the
/// project id is a plain identifier, a note only on an inspiration photo and at most 200
/// characters, a storage key at most 1024 bytes. A value of this type obeys them all.
public struct PhotoUpload: Sendable, Equatable {
    /// Notes on inspiration photos are at most this many characters (Unicode code points, as the
    /// gateway's Pydantic model counts them).
    public static let maximumNoteLength = 200
    /// A storage key is at most this many UTF-8 bytes.
    public static let maximumStorageKeyBytes = 1024

    /// The project (its workflow id).
    public let projectID: String
    /// What the photo is for.
    public let photoType: PhotoType
    /// The user's note, nil when absent or empty.
    public let note: String?
    /// The storage key the gateway chose, nil for the default.
    public let storageKey: String?

    /// Checks the upload's fields; an empty note or storage key counts as absent.
    ///
    /// - Throws: `UploadRuleViolation` naming the first rule broken.
    public init(projectID: String, photoType: PhotoType, note: String?, storageKey: String?) throws(UploadRuleViolation) {
        try Self.checkProjectID(projectID)
        let note = note.flatMap { $0.isEmpty ? nil : $0 }
        if let note {
            guard photoType == .inspiration else { throw .noteNotAllowed }
            guard note.unicodeScalars.count <= Self.maximumNoteLength else { throw .noteTooLong(maximum: Self.maximumNoteLength) }
        }
        let storageKey = storageKey.flatMap { $0.isEmpty ? nil : $0 }
        if let storageKey, storageKey.utf8.count > Self.maximumStorageKeyBytes {
            throw .storageKeyTooLong(maximum: Self.maximumStorageKeyBytes)
        }
        self.projectID = projectID
        self.photoType = photoType
        self.note = note
        self.storageKey = storageKey
    }

    /// Checks a project id alone (before an upload's body is read): 1 to 256 of
    /// `A-Z a-z 0-9 . _ : -`, and not `.` or `..`, so it is safe in a URL path and an object key.
    ///
    /// - Throws: `UploadRuleViolation.projectID`.
    public static func checkProjectID(_ projectID: String) throws(UploadRuleViolation) {
        guard PlainIdentifier.isValid(projectID, maximumLength: 256) && projectID != "." && projectID != ".." else {
            throw .projectID
        }
    }

    /// Throws unless `photoID` is a plain identifier, as a project id must be.
    public static func checkPhotoID(_ photoID: String) throws(UploadRuleViolation) {
        guard PlainIdentifier.isValid(photoID, maximumLength: 256) && photoID != "." && photoID != ".." else {
            throw .photoID
        }
    }

    /// The storage key for the photo `photoID`: the one given, else
    /// `projects/<project_id>/photos/<photo_type>_<photo_id>.jpg`.
    public func storageKey(photoID: String) -> String {
        storageKey ?? "projects/\(projectID)/photos/\(photoType.rawValue)_\(photoID).jpg"
    }

    /// Whether answering `output` promises the project a `photo_added` signal: only a passed photo does.
    public func promisesSignal(for output: ValidatePhotoOutput) -> Bool {
        output.passed
    }
}
