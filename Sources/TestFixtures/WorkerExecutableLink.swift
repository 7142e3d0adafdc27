import Foundation

/// A symbolic link that decode workers are started through (`decode_worker_executable`), which a
/// test points at the real program or at one that exits at birth, as a broken install or a crash
/// loop makes every new worker do.
package struct WorkerExecutableLink: Sendable {
    /// The link's path, for `decode_worker_executable`.
    package let path: String

    /// A new link in a temporary folder, pointing at the built `photo-validator`.
    package init() throws {
        path = Fixtures.temporaryPath("photo-validator-worker")
        try repair()
    }

    /// Points the link at `target`, replacing it in one step (a worker started meanwhile sees the
    /// old target or the new one, never no link).
    package func point(at target: String) throws {
        let staged = path + ".new"
        try? FileManager.default.removeItem(atPath: staged)
        try FileManager.default.createSymbolicLink(atPath: staged, withDestinationPath: target)
        guard rename(staged, path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot rename \(staged) to \(path) (errno \(errno))"])
        }
    }

    /// Every worker started from now on exits at once with status 1 (`/bin/false`), before it gets ready.
    package func breakWorkers() throws {
        try point(at: "/bin/false")
    }

    /// Workers start from the built `photo-validator` again.
    package func repair() throws {
        try point(at: ProcessRunner.photoValidatorExecutable.path)
    }
}
