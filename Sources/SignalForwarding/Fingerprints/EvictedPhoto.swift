/// A remembered photo the duplicate memory forgot without being asked to, and why.
package struct EvictedPhoto: Sendable, Equatable {
    /// Why a photo was forgotten.
    package enum Reason: String, Sendable, CaseIterable {
        /// Older than the retention period.
        case age
        /// Its project had as many newer photos as a project keeps.
        case projectFull = "project_full"
        /// The total budget was full; the oldest photos of every project go first.
        case budget
    }

    /// Its project.
    package let projectID: String
    /// The photo.
    package let photoID: String
    /// Why.
    package let reason: Reason

    /// An eviction from its parts.
    package init(projectID: String, photoID: String, reason: Reason) {
        self.projectID = projectID
        self.photoID = photoID
        self.reason = reason
    }
}
