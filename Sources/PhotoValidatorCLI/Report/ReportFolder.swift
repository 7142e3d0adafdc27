import Foundation
import PhotoFormat

/// The folder a report is written to: `index.html` and `thumbs/`, the thumbnails named by number
/// (never by the photo's own name, which is untrusted).
struct ReportFolder: Sendable {
    /// The bounds of every report thumbnail: at most 256 px on the long edge, JPEG quality 80.
    static let thumbnailBounds = PreviewBounds(maximumLongEdge: 256, maximumPixels: 256 * 256, quality: 80)

    /// The folder.
    let url: URL

    /// Creates the folder and its `thumbs/` (emptied of an earlier report's thumbnails).
    init(path: String) throws {
        url = URL(fileURLWithPath: path, isDirectory: true)
        let thumbs = url.appendingPathComponent("thumbs", isDirectory: true)
        if FileManager.default.fileExists(atPath: thumbs.path) {
            for name in try FileManager.default.contentsOfDirectory(atPath: thumbs.path) where name.hasSuffix(".jpg") {
                try FileManager.default.removeItem(at: thumbs.appendingPathComponent(name))
            }
        }
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
    }

    /// The page's relative URL of thumbnail `number` (`thumbs/000042.jpg`).
    static func thumbnailName(_ number: Int, suffix: String = "") -> String {
        let digits = String(number)
        return "thumbs/" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + suffix + ".jpg"
    }

    /// Writes `image`'s JPEG as thumbnail `number` and returns its relative URL.
    func write(_ image: PreviewImage, number: Int, suffix: String = "") throws -> String {
        let name = Self.thumbnailName(number, suffix: suffix)
        try Data(image.jpeg).write(to: url.appendingPathComponent(name))
        return name
    }

    /// Removes the thumbnail at relative URL `name`.
    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    /// The index page's URL.
    var index: URL { url.appendingPathComponent("index.html") }
}
