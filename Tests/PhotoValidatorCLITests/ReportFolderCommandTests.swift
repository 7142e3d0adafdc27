import Foundation
import TestFixtures
import Testing

/// `validate`, `label` and `tune` with `--report` at a folder they must not write through: the
/// built binary, real files.
@Suite("report folders, end to end", .integration, .timeLimit(.minutes(10)))
struct ReportFolderCommandTests {
    /// A scratch folder with two photos in `set/` (and a blur manifest for `tune`), a report
    /// folder whose `thumbs` is a link to `outside/`, and in `outside/` a photo of its own and one
    /// named as a report names its thumbnails.
    private func linkedThumbs() throws -> (folder: ScratchFolder, report: URL, outside: URL) {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "set/cups.jpg")
        try folder.copy("photos/blur-real-text-defocus.jpg", to: "set/text.jpg")
        try folder.write("path,label,photo_type\ncups.jpg,sharp,room\ntext.jpg,blurry,room\n", to: "set/manifest.csv")
        try folder.copy("photos/outdoor-path.jpg", to: "outside/holiday.jpg")
        try folder.copy("photos/outdoor-path.jpg", to: "outside/000001.jpg")
        let report = folder.url.appendingPathComponent("report")
        try FileManager.default.createDirectory(at: report, withIntermediateDirectories: true)
        let outside = folder.url.appendingPathComponent("outside")
        try FileManager.default.createSymbolicLink(at: report.appendingPathComponent("thumbs"), withDestinationURL: outside)
        return (folder, report, outside)
    }

    @Test("a symbolic link as thumbs/: each command refuses with one sentence and exit 2; nothing where it leads is removed or written")
    func linkedThumbsRefused() async throws {
        for command in ["validate", "label", "tune"] {
            let (folder, report, outside) = try linkedThumbs()
            let before = try Self.contents(of: outside)
            let set = folder.url.appendingPathComponent("set")
            let arguments = command == "tune"
                ? ["tune", set.appendingPathComponent("manifest.csv").path, "--report", report.path, "--output", folder.url.appendingPathComponent("out").path, "--no-progress"]
                : [command, set.path, "--report", report.path, "--no-progress"]
            let outcome = try await photoValidator(arguments)
            #expect(outcome.status == 2, "\(command): \(outcome.standardError)")
            #expect(outcome.standardError.contains("photo-validator: report_folder_link: \(report.appendingPathComponent("thumbs").path) is a symbolic link"), "\(command): \(outcome.standardError)")
            #expect(try Self.contents(of: outside) == before, "\(command)")
        }
    }

    @Test("a report folder that is a file: a sentence saying what to do, no Foundation error dump")
    func reportIsAFile() async throws {
        let folder = try ScratchFolder()
        try folder.copy("photos/cups.jpg", to: "set/cups.jpg")
        try folder.write("not a folder", to: "report")
        let report = folder.url.appendingPathComponent("report")
        let outcome = try await photoValidator(["validate", folder.url.appendingPathComponent("set").path, "--report", report.path, "--no-progress"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("photo-validator: report_folder_not_a_folder: \(report.path) is not a folder (Not a directory); give --report a folder"),
                "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("Error Domain"))
    }

    /// Every file's name and bytes under `folder`.
    private static func contents(of folder: URL) throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            contents[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return contents
    }
}
