import Foundation

/// The crafted HEIC files of `datasets/make-heif-lies`: structural lies an attacker sends (each must
/// be refused as `invalid_image` from its header) and valid controls (each must decode), written
/// from one tile of `../shared/photos/room-couch-pug.heic` into a fresh folder.
package enum HEIFLies {
    /// One generated file.
    package struct File: Sendable, CustomStringConvertible {
        /// Where it was written.
        package let url: URL
        /// True for a lie, false for a control.
        package var isLie: Bool { url.lastPathComponent.hasPrefix("lie-") }
        /// The file name.
        package var description: String { url.lastPathComponent }
    }

    /// Runs the generator and returns its files, lies and controls, sorted by name.
    package static func generate() async throws -> [File] {
        guard let source = Fixtures.sharedFile("photos/room-couch-pug.heic") else {
            throw GenerationFailure(message: "../shared/photos/room-couch-pug.heic is missing")
        }
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("heif-lies"))
        let script = Fixtures.repositoryRoot.appendingPathComponent("datasets/make-heif-lies")
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, source.path, folder.path])
        guard outcome.status == 0 else {
            throw GenerationFailure(message: "make-heif-lies failed (\(outcome.status)): \(outcome.standardError)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return names.map { File(url: folder.appendingPathComponent($0)) }
    }

    /// The generator did not run.
    package struct GenerationFailure: Error, CustomStringConvertible {
        /// What went wrong.
        package let message: String
        /// The message.
        package var description: String { message }
    }
}
