import Foundation

/// libheif's own decode of HEIC photos, through the pillow-heif test peer, as PNG copies: the
/// reference the FFmpeg path is compared with, since no HEIC reaches libheif in photo-validator.
package enum PillowHEIF {
    /// PNG copies (turned and mirrored as displayed) of the HEIC photos among `urls` that libheif
    /// decodes, keyed by the HEIC's path; empty when there is no peer environment
    /// (`PHOTO_VALIDATOR_PYTHON`, else the `.venv` that `scripts/setup --test` makes).
    package static func pngCopies(of urls: [URL]) async throws -> [String: URL] {
        let heics = urls.filter { $0.pathExtension.lowercased() == "heic" }
        let python = Fixtures.peerTool("python", overriddenBy: "PHOTO_VALIDATOR_PYTHON").path
        guard FileManager.default.isExecutableFile(atPath: python), !heics.isEmpty else { return [:] }
        let folder = URL(fileURLWithPath: Fixtures.temporaryPath("libheif"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pngs = heics.indices.map { folder.appendingPathComponent("\($0).png") }
        let script = """
            import sys, pillow_heif
            from PIL import Image
            pillow_heif.register_heif_opener()
            paths = sys.argv[1:]
            for source, target in zip(paths[0::2], paths[1::2]):
                try:
                    Image.open(source).convert("RGB").save(target, compress_level=1)
                except Exception as error:
                    print(f"{source}: {error}", file=sys.stderr)
            """
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: python), ["-c", script] + zip(heics, pngs).flatMap { [$0.path, $1.path] })
        guard outcome.status == 0 else { throw Failure(message: "pillow-heif failed (\(outcome.status)): \(outcome.standardError)") }
        // A file libheif cannot decode (a truncated one) has no reference.
        return Dictionary(uniqueKeysWithValues: zip(heics.map(\.path), pngs).filter { FileManager.default.fileExists(atPath: $0.1.path) })
    }

    /// The peer did not run.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let message: String
        /// The message.
        package var description: String { message }
    }
}
