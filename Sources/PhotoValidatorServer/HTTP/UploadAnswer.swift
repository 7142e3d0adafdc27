import PhotoValidation

/// The answer of the gateway-compatible upload: the new photo's id and its validation.
struct UploadAnswer: Codable, Sendable, Equatable {
    /// A fresh UUID (version 4) for the photo; with an Idempotency-Key and no outbox, one derived from the key.
    let photoID: String
    /// The validation result.
    let validation: ValidatePhotoOutput

    enum CodingKeys: String, CodingKey {
        case photoID = "photo_id"
        case validation
    }
}
