import Hummingbird
import PhotoValidation

/// The answer of the gateway-compatible upload: the new photo's id and its validation.
struct UploadAnswer: Codable, ResponseEncodable, Sendable, Equatable {
    /// A fresh UUID (version 4) for the photo; with an Idempotency-Key and no outbox, one derived from the key.
    let photoID: String
    /// The validation result.
    let validation: ValidatePhotoOutput

    enum CodingKeys: String, CodingKey {
        case photoID = "photo_id"
        case validation
    }
}

/// The validation endpoint answers the contract's output as it is.
extension ValidatePhotoOutput: ResponseEncodable {}
