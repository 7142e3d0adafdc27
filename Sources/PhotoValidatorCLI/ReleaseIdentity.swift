import CReleaseInfo
import PhotoChecks

/// What `photo-validator --version` prints: the release version, the git revision the binary was
/// built from, and the libvips it runs with.
package enum ReleaseIdentity {
    /// The release version (the OpenAPI document's `info.version`).
    package static let version = "1.0.0"

    /// The git revision baked in at build time (`scripts/build-release`, the Dockerfile), or
    /// `unknown` for a plain `swift build`.
    package static var gitRevision: String { String(cString: photo_validator_git_revision()) }

    /// One line, such as `photo-validator 1.0.0 (git 1a2b3c4, libvips 8.14.1)`.
    package static var description: String {
        "photo-validator \(version) (git \(gitRevision), libvips \(DecoderRuntime.libvipsVersion))"
    }

    /// `--version --verbose`: the line above, then the decoder libraries and the Swift packages
    /// the build resolved, one per line.
    package static var verboseDescription: String {
        var lines = [description, "decoders:"]
        lines += DecoderRuntime.libraryVersions.map { "  \($0.name) \($0.version)" }
        lines.append("swift packages:")
        lines += String(cString: photo_validator_packages()).split(separator: ";").map { "  " + $0.replacingOccurrences(of: "=", with: " ") }
        return lines.joined(separator: "\n")
    }
}
