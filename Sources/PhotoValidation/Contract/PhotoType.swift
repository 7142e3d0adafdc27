/// What a photo is for: the room to redesign, or an inspiration photo.
public enum PhotoType: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// A photo of the user's room.
    case room
    /// A photo the user likes (up to three per project).
    case inspiration

    /// The raw value, as the API spells it.
    public var description: String { rawValue }
}
