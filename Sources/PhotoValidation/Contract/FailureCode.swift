/// The machine-readable reasons a photo fails, spelled as the gateway and the iOS app spell them.
public enum FailureCode: String, Sendable, Codable, CaseIterable {
    /// The photo could not be decoded (or is not an allowed format).
    case invalidImage = "invalid_image"
    /// The shortest side is below the minimum for the photo type.
    case lowResolution = "low_resolution"
    /// The blur score is below the threshold for the photo type.
    case blurry = "blurry"
    /// The content check saw people rather than a room.
    case tooManyPeople = "too_many_people"
    /// The content check did not see what the photo type needs.
    case contentRejected = "content_rejected"
    /// The content check could not run and the policy is fail-closed.
    case contentCheckUnavailable = "content_check_unavailable"
    /// The photo is too dark to make out the scene.
    case tooDark = "too_dark"
    /// The photo is washed out by light.
    case overexposed = "overexposed"
    /// The same photo was already added to the project.
    case duplicatePhoto = "duplicate_photo"

    /// The user-facing message for this failure, as fixed by the contract.
    public func message(for photoType: PhotoType, minimumShortSide: Int) -> String {
        switch (self, photoType) {
        case (.invalidImage, _):
            "Could not open image. Please upload a valid JPEG, PNG, HEIC or WebP photo."
        case (.lowResolution, .room):
            "This photo is too low resolution. Please use a higher quality image."
        case (.lowResolution, .inspiration):
            "This inspiration photo is too small (minimum \(minimumShortSide)px). Please choose a larger image."
        case (.blurry, .room):
            "This photo looks blurry. Please retake with a steady hand."
        case (.blurry, .inspiration):
            "This photo looks too blurry. Please choose a clearer image."
        case (.tooManyPeople, _):
            "This looks like a photo of people, not a room. Please upload a photo of your space."
        case (.contentRejected, .room):
            "We couldn't identify a room in this photo. Please upload a photo of an interior space."
        case (.contentRejected, .inspiration):
            "Inspiration photos should show spaces, furniture, or design details — not people or animals. Please choose a different image."
        case (.contentCheckUnavailable, _):
            "We couldn't check this photo right now. Please try again in a moment."
        case (.tooDark, _):
            "This photo is too dark to see clearly. Turn on the lights or open the curtains and try again."
        case (.overexposed, _):
            "This photo is washed out by too much light. Avoid pointing at a bright window or lamp and try again."
        case (.duplicatePhoto, _):
            "You've already added this photo to this project. Please choose a different one."
        }
    }
}
