/// What a content classifier says a photo shows: the structured answer the model must give
/// (forced tool use or a JSON schema), and the documented mapping to the contract's failures.
///
/// Mapping (README, "Content check"):
/// - room photos: `scene == interior_room` passes; `room_dominated_by_people` is `too_many_people`;
///   every other scene (outdoor, document, screenshot, close-ups of a person, animal or object,
///   other) is `content_rejected`.
/// - inspiration photos: pass when `design_related` is true and `main_subject` is neither `people`
///   nor `animal`; otherwise `content_rejected`.
public struct ContentLabels: Sendable, Codable, Equatable {
    /// What kind of picture it is.
    public enum Scene: String, Sendable, Codable, CaseIterable {
        /// An interior room or space of a home or building, people absent or incidental.
        case interiorRoom = "interior_room"
        /// An interior room in which people are the main thing in the picture.
        case roomDominatedByPeople = "room_dominated_by_people"
        /// An outdoor scene: landscape, street, garden, building exterior.
        case outdoor
        /// A document, page, receipt or scan of text.
        case document
        /// A screenshot of a screen, app or map.
        case screenshot
        /// A close-up or portrait of one or more people.
        case personCloseUp = "person_close_up"
        /// A close-up of an animal.
        case animalCloseUp = "animal_close_up"
        /// A close-up of an object or detail.
        case objectCloseUp = "object_close_up"
        /// Anything else.
        case other
    }

    /// What the picture is mainly about.
    public enum Subject: String, Sendable, Codable, CaseIterable {
        /// A space: a room, an interior, an architectural view.
        case space
        /// Furniture, lighting or decor.
        case furnitureOrDecor = "furniture_or_decor"
        /// A design detail: material, texture, colour, pattern, fixture.
        case designDetail = "design_detail"
        /// People.
        case people
        /// An animal.
        case animal
        /// Anything else.
        case other
    }

    /// What kind of picture it is.
    public let scene: Scene
    /// What the picture is mainly about.
    public let mainSubject: Subject
    /// True when it could inspire an interior design: spaces, furniture, decor, materials, colours.
    public let designRelated: Bool
    /// The model's short reason, for support and logs (never shown to users).
    public let reason: String

    /// Creates labels.
    public init(scene: Scene, mainSubject: Subject, designRelated: Bool, reason: String) {
        self.scene = scene
        self.mainSubject = mainSubject
        self.designRelated = designRelated
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case scene
        case mainSubject = "main_subject"
        case designRelated = "design_related"
        case reason
    }

    /// The failure these labels mean for a photo of `photoType`, or nil when it passes.
    public func failure(for photoType: PhotoType) -> FailureCode? {
        switch photoType {
        case .room:
            switch scene {
            case .interiorRoom: nil
            case .roomDominatedByPeople: .tooManyPeople
            default: .contentRejected
            }
        case .inspiration:
            designRelated && mainSubject != .people && mainSubject != .animal ? nil : .contentRejected
        }
    }
}
