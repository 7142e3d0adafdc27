import ArgumentParser

/// Which photos of a `validate` run are one project for the duplicate check (`--duplicates`).
enum DuplicateScope: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The photos of one folder are one project.
    case folder
    /// Every photo of the run is one project.
    case run
    /// No duplicate check.
    case off
}
