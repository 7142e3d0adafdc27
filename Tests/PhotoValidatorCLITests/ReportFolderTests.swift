import Foundation
import Testing
@testable import PhotoValidatorCLI

/// What a report folder keeps of an earlier report, and that writing a thumbnail never reaches another file.
@Suite("Report folder")
struct ReportFolderTests {
    /// A fresh temporary folder holding an earlier report: a page, a plain thumbnail, a symbolic
    /// link to a file outside, and a thumbnail hard-linked from outside.
    private func earlierReport() throws -> (report: URL, outside: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pv-report-folder-\(UUID().uuidString)")
        let report = root.appendingPathComponent("report")
        let thumbs = report.appendingPathComponent("thumbs")
        let outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("old page".utf8).write(to: report.appendingPathComponent("index.html"))
        try Data("old thumbnail".utf8).write(to: thumbs.appendingPathComponent("000000.jpg"))
        try Data("precious".utf8).write(to: outside.appendingPathComponent("target.jpg"))
        try FileManager.default.createSymbolicLink(at: thumbs.appendingPathComponent("000001.jpg"), withDestinationURL: outside.appendingPathComponent("target.jpg"))
        try Data("snapshot".utf8).write(to: outside.appendingPathComponent("snapshot.jpg"))
        try FileManager.default.linkItem(at: outside.appendingPathComponent("snapshot.jpg"), to: thumbs.appendingPathComponent("000002.jpg"))
        return (report, outside)
    }

    @Test("kept for reuse: only plain single-link thumbnails; links are removed, the earlier page too, and writing never follows a link")
    func keepsOnlyPlainFiles() throws {
        let (report, outside) = try earlierReport()
        defer { try? FileManager.default.removeItem(at: report.deletingLastPathComponent()) }
        let folder = try ReportFolder(path: report.path, keepingEarlier: true)
        #expect(folder.earlier == ["thumbs/000000.jpg"])
        #expect(!FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path), "the earlier page would show new thumbnails beside its old rows")
        for number in 0..<3 {
            try ReportFolder.write(Array("new \(number)".utf8), to: report.appendingPathComponent(ReportFolder.thumbnailName(number)).path)
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("target.jpg"), encoding: .utf8) == "precious")
        #expect(try String(contentsOf: outside.appendingPathComponent("snapshot.jpg"), encoding: .utf8) == "snapshot")
        #expect(try String(contentsOf: report.appendingPathComponent("thumbs/000001.jpg"), encoding: .utf8) == "new 1")
    }

    @Test("a symbolic link put in place of a thumbnail after the folder was opened is not written through")
    func writeRefusesALink() throws {
        let (report, outside) = try earlierReport()
        defer { try? FileManager.default.removeItem(at: report.deletingLastPathComponent()) }
        _ = try ReportFolder(path: report.path, keepingEarlier: true)
        let late = report.appendingPathComponent("thumbs/000005.jpg")
        try FileManager.default.createSymbolicLink(at: late, withDestinationURL: outside.appendingPathComponent("target.jpg"))
        #expect(throws: POSIXError.self) { try ReportFolder.write(Array("new".utf8), to: late.path) }
        #expect(try String(contentsOf: outside.appendingPathComponent("target.jpg"), encoding: .utf8) == "precious")
    }
}
