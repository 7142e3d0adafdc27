import Hummingbird

/// The answer of `DELETE /api/v1/projects/{project_id}/photos/{photo_id}`.
struct ForgottenPhoto: Codable, ResponseEncodable, Sendable, Equatable {
    /// The project.
    let projectID: String
    /// The photo the duplicate check no longer compares with.
    let photoID: String
    /// Whether the photo's fingerprint was remembered (and is now forgotten).
    let forgotten: Bool

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id"
        case photoID = "photo_id"
        case forgotten
    }
}
