/// The one argument of the `photo_added` signal, in the worker's snake_case field names.
package struct PhotoData: Codable, Sendable, Equatable {
    /// The photo's UUID; lets the workflow drop duplicate deliveries.
    package let photoID: String
    /// Where the gateway stored the bytes.
    package let storageKey: String
    /// `room` or `inspiration`.
    package let photoType: String
    /// The note of an inspiration photo, or nil.
    package let note: String?

    /// Creates the payload.
    package init(photoID: String, storageKey: String, photoType: String, note: String?) {
        self.photoID = photoID
        self.storageKey = storageKey
        self.photoType = photoType
        self.note = note
    }

    enum CodingKeys: String, CodingKey {
        case photoID = "photo_id"
        case storageKey = "storage_key"
        case photoType = "photo_type"
        case note
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(photoID, forKey: .photoID)
        try container.encode(storageKey, forKey: .storageKey)
        try container.encode(photoType, forKey: .photoType)
        // The worker's dataclass expects the key, with null for no note.
        try container.encode(note, forKey: .note)
    }
}
