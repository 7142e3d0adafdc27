/// Whose job it is, for fair admission: the caller, served in turn with the other callers, and
/// the project, a sub-queue served in turn with the caller's other projects.
///
/// Only the caller must be something a client cannot choose (an authenticated identity or an
/// address): a client that names a new project per photo only splits its own turn.
package struct FairKey: Hashable, Sendable, CustomStringConvertible {
    /// Who sent the job: the gateway's user, a named token, or a peer address.
    package let caller: String
    /// The project within the caller's turn ("" when the job names none).
    package let project: String

    /// The key of `caller`'s job for `project`.
    package init(caller: String, project: String = "") {
        self.caller = caller
        self.project = project
    }

    /// `caller/project`, for messages.
    package var description: String { project.isEmpty ? caller : "\(caller)/\(project)" }
}
