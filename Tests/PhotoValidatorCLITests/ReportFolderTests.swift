import Foundation
import Testing
@testable import PhotoValidatorCLI

/// What a report folder replaces and removes (only its own files), and that no link, put there
/// before or after it was opened, leads a write or a removal outside it. Real files in a temporary folder.
@Suite("Report folder")
struct ReportFolderTests {
    /// A temporary folder with `report` (not created) and `outside`, holding a precious photo and
    /// a photo named as a report names its thumbnails.
    private final class Scene {
        let root: URL
        let report: URL
        let outside: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("pv-report-folder-\(UUID().uuidString)")
            report = root.appendingPathComponent("report")
            outside = root.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("precious".utf8).write(to: outside.appendingPathComponent("holiday.jpg"))
            try Data("precious too".utf8).write(to: outside.appendingPathComponent("000001.jpg"))
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        /// The text of `name` in `outside`.
        func outsideText(_ name: String) throws -> String {
            try String(contentsOf: outside.appendingPathComponent(name), encoding: .utf8)
        }

        /// The text of `name` in the report.
        func reportText(_ name: String) throws -> String {
            try String(contentsOf: report.appendingPathComponent(name), encoding: .utf8)
        }

        /// The names in `outside`, sorted.
        func outsideNames() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: outside.path).sorted()
        }

        /// A report written into `report` as a run writes one: thumbnails 1 and 2 and the page.
        func earlierReport() throws {
            let folder = try ReportFolder(path: report.path)
            for number in 1...2 {
                try folder.write(Array("old \(number)".utf8), as: ReportFolder.thumbnailName(number))
            }
            _ = try folder.writePage(Array("old page".utf8))
        }
    }

    /// The error `body` throws, which must be a `ReportFolderError`.
    private func refusal(_ body: () throws -> Void) throws -> ReportFolderError {
        let error = #expect(throws: ReportFolderError.self) { try body() }
        return try #require(error)
    }

    @Test("an earlier report's own thumbnails are kept for reuse or removed; files it did not write, even named like thumbnails elsewhere, stay")
    func keepsOnlyItsOwn() throws {
        let scene = try Scene()
        try scene.earlierReport()
        try Data("mine".utf8).write(to: scene.report.appendingPathComponent("thumbs/holiday.jpg"))
        try Data("notes".utf8).write(to: scene.report.appendingPathComponent("notes.txt"))
        let kept = try ReportFolder(path: scene.report.path, keepingEarlier: true)
        #expect(kept.earlier == ["thumbs/000001.jpg", "thumbs/000002.jpg"])
        #expect(!FileManager.default.fileExists(atPath: scene.report.appendingPathComponent("index.html").path), "the earlier page would show new thumbnails beside its old rows")
        try kept.write(Array("new 1".utf8), as: ReportFolder.thumbnailName(1))
        kept.removeEarlier(except: ["thumbs/000001.jpg"])
        #expect(try scene.reportText("thumbs/000001.jpg") == "new 1")
        #expect(!FileManager.default.fileExists(atPath: scene.report.appendingPathComponent("thumbs/000002.jpg").path))
        _ = try kept.writePage(Array("page".utf8))

        _ = try ReportFolder(path: scene.report.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.report.appendingPathComponent("thumbs").path) == ["holiday.jpg"])
        #expect(try scene.reportText("thumbs/holiday.jpg") == "mine")
        #expect(try scene.reportText("notes.txt") == "notes")
    }

    @Test("a symbolic link as thumbs/ is refused before anything is written or removed where it leads")
    func refusesLinkedThumbs() throws {
        for keepingEarlier in [false, true] {
            let scene = try Scene()
            try scene.earlierReport()
            try FileManager.default.removeItem(at: scene.report.appendingPathComponent("thumbs"))
            try FileManager.default.createSymbolicLink(at: scene.report.appendingPathComponent("thumbs"), withDestinationURL: scene.outside)
            let error = try refusal { _ = try ReportFolder(path: scene.report.path, keepingEarlier: keepingEarlier) }
            #expect(error.code == .link)
            #expect(error.path == scene.report.appendingPathComponent("thumbs").path)
            #expect(try scene.outsideNames() == ["000001.jpg", "holiday.jpg"])
            #expect(try scene.outsideText("000001.jpg") == "precious too")
            #expect(try scene.reportText("index.html") == "old page", "a refusal leaves the folder as it was")
        }
    }

    @Test("a symbolic link as the report folder is refused; a link among its parents is the user's path and is followed")
    func reportFolderLinks() throws {
        let scene = try Scene()
        try FileManager.default.createDirectory(at: scene.root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: scene.report, withDestinationURL: scene.outside)
        let error = try refusal { _ = try ReportFolder(path: scene.report.path) }
        #expect(error.code == .link)
        #expect(error.description.hasPrefix("report_folder_link: \(scene.report.path) is a symbolic link"))
        #expect(try scene.outsideNames() == ["000001.jpg", "holiday.jpg"])

        let parent = scene.root.appendingPathComponent("parent")
        try FileManager.default.createSymbolicLink(at: parent, withDestinationURL: scene.outside)
        let folder = try ReportFolder(path: parent.appendingPathComponent("nested").path)
        try folder.write(Array("thumb".utf8), as: ReportFolder.thumbnailName(1))
        #expect(try String(contentsOf: scene.outside.appendingPathComponent("nested/thumbs/000001.jpg"), encoding: .utf8) == "thumb")
        #expect(try scene.outsideText("000001.jpg") == "precious too")
    }

    @Test("a link at the page, at a thumbnail's name or at the record is refused, and nothing it leads to changes")
    func refusesLinkedFiles() throws {
        for name in ["index.html", "thumbs/000001.jpg", ReportFolder.manifestName] {
            let scene = try Scene()
            try scene.earlierReport()
            let place = scene.report.appendingPathComponent(name)
            try FileManager.default.removeItem(at: place)
            try FileManager.default.createSymbolicLink(at: place, withDestinationURL: scene.outside.appendingPathComponent("000001.jpg"))
            let error = try refusal { _ = try ReportFolder(path: scene.report.path, keepingEarlier: true) }
            #expect(error.code == .link, "\(name)")
            #expect(error.path == place.path)
            #expect(try scene.outsideText("000001.jpg") == "precious too")
            #expect(try scene.outsideNames() == ["000001.jpg", "holiday.jpg"])
        }
    }

    @Test("a file named as the report names its own but not recorded by it is refused, not replaced; so is a record that is not one")
    func refusesForeignFiles() throws {
        for name in ["index.html", "thumbs/000001.jpg", ReportFolder.manifestName] {
            let scene = try Scene()
            try scene.earlierReport()
            try Data("someone else's".utf8).write(to: scene.report.appendingPathComponent(name))
            if name != ReportFolder.manifestName {
                // The record no longer lists it: as if another tool had made it.
                try FileManager.default.removeItem(at: scene.report.appendingPathComponent(ReportFolder.manifestName))
            }
            let error = try refusal { _ = try ReportFolder(path: scene.report.path) }
            #expect(error.code == .foreignFile, "\(name)")
            #expect(error.description.contains("move it away, or give --report a new or empty folder"))
            #expect(try scene.reportText(name) == "someone else's")
        }
    }

    @Test("links and files put in the way after the folder was opened are not written through, and thumbs/ is used by its descriptor, not its path")
    func lateChanges() throws {
        let scene = try Scene()
        let folder = try ReportFolder(path: scene.report.path)
        let late = scene.report.appendingPathComponent("thumbs/000005.jpg")
        try FileManager.default.createSymbolicLink(at: late, withDestinationURL: scene.outside.appendingPathComponent("000001.jpg"))
        #expect(try refusal { try folder.write(Array("new".utf8), as: ReportFolder.thumbnailName(5)) }.code == .link)
        try Data("raced in".utf8).write(to: scene.report.appendingPathComponent("thumbs/000006.jpg"))
        #expect(try refusal { try folder.write(Array("new".utf8), as: ReportFolder.thumbnailName(6)) }.code == .foreignFile)
        #expect(try scene.reportText("thumbs/000006.jpg") == "raced in")

        try FileManager.default.moveItem(at: scene.report.appendingPathComponent("thumbs"), to: scene.report.appendingPathComponent("moved"))
        try FileManager.default.createSymbolicLink(at: scene.report.appendingPathComponent("thumbs"), withDestinationURL: scene.outside)
        try folder.write(Array("new 7".utf8), as: ReportFolder.thumbnailName(7))
        #expect(try scene.reportText("moved/000007.jpg") == "new 7")
        #expect(try scene.outsideNames() == ["000001.jpg", "holiday.jpg"])
        folder.remove(ReportFolder.thumbnailName(1))
        #expect(try scene.outsideText("000001.jpg") == "precious too", "a name the report did not write is never removed")
    }

    @Test("a thumbnail another hard link shares (a snapshot made with cp -al) keeps its bytes there when the report writes the name again")
    func hardLinkedThumbnail() throws {
        let scene = try Scene()
        try scene.earlierReport()
        let snapshot = scene.outside.appendingPathComponent("snapshot.jpg")
        try FileManager.default.linkItem(at: scene.report.appendingPathComponent("thumbs/000001.jpg"), to: snapshot)
        let folder = try ReportFolder(path: scene.report.path, keepingEarlier: true)
        try folder.write(Array("new 1".utf8), as: ReportFolder.thumbnailName(1))
        try folder.write(Array("new 2".utf8), as: ReportFolder.thumbnailName(2))
        #expect(try String(contentsOf: snapshot, encoding: .utf8) == "old 1")
        #expect(try scene.reportText("thumbs/000001.jpg") == "new 1")
        #expect(try scene.reportText("thumbs/000002.jpg") == "new 2")
    }

    @Test("a report folder that is a file, or whose thumbs/ is a file, gets a sentence saying what to do")
    func notAFolder() throws {
        let scene = try Scene()
        try Data("a file".utf8).write(to: scene.report)
        let error = try refusal { _ = try ReportFolder(path: scene.report.path) }
        #expect(error.code == .notAFolder)
        #expect(error.description == "report_folder_not_a_folder: \(scene.report.path) is not a folder (Not a directory); "
            + "give --report a folder, or a path where one can be created")

        let other = scene.root.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("a file".utf8).write(to: other.appendingPathComponent("thumbs"))
        let thumbs = try refusal { _ = try ReportFolder(path: other.path) }
        #expect(thumbs.code == .notAFolder)
        #expect(thumbs.path == other.appendingPathComponent("thumbs").path)
    }

    @Test("a report folder that cannot be written gets a sentence saying what to do", .enabled(if: getuid() != 0, "root writes into read-only folders"))
    func readOnly() throws {
        let scene = try Scene()
        try FileManager.default.createDirectory(at: scene.report, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: scene.report.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scene.report.path) }
        let error = try refusal { _ = try ReportFolder(path: scene.report.path) }
        #expect(error.code == .notWritable)
        #expect(error.description.contains("make the folder writable (chmod u+w) or give --report a folder you can write to"))
    }

    @Test("the file system's refusals become the report's codes and sentences")
    func errnoSentences() {
        let readOnly = ReportFolderError(POSIXError(.EROFS), path: "/mnt/report")
        #expect(readOnly.code == .notWritable)
        #expect(readOnly.description == "report_folder_not_writable: cannot write the report at /mnt/report (Read-only file system); "
            + "make the folder writable (chmod u+w) or give --report a folder you can write to")
        #expect(ReportFolderError(POSIXError(.EACCES), path: "/r").code == .notWritable)
        #expect(ReportFolderError(POSIXError(.ENOSPC), path: "/r").description.contains("free some space"))
        #expect(!readOnly.description.contains("Error Domain"))
    }

    @Test("the record keeps only names a report generates")
    func manifestNames() throws {
        let record = try #require(ReportManifest(bytes: Array((ReportManifest.header + "\nindex.html\nthumbs/000001.jpg\nthumbs/000002-1024.jpg\n../etc/passwd\nthumbs/holiday.jpg\nthumbs/01.jpg\n").utf8)))
        #expect(record.names == ["index.html", "thumbs/000001.jpg", "thumbs/000002-1024.jpg"])
        #expect(ReportManifest(bytes: record.bytes) == record)
        #expect(ReportManifest(bytes: Array("index.html\n".utf8)) == nil)
    }
}
