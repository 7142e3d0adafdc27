import Foundation
import PhotoFormat

/// The folder a report is written to: `index.html` and `thumbs/`, the thumbnails named by number
/// (never by the photo's own name, which is untrusted).
struct ReportFolder: Sendable {
    /// The bounds of every report thumbnail: at most 256 px on the long edge, JPEG quality 80.
    static let thumbnailBounds = PreviewBounds(maximumLongEdge: 256, maximumPixels: 256 * 256, quality: 80)

    /// The folder.
    let url: URL
    /// An earlier report's thumbnails left in `thumbs/` (relative URLs), when kept at the start.
    let earlier: [String]

    /// Creates the folder and its `thumbs/`, emptied of an earlier report's thumbnails, or with
    /// `keepingEarlier` left as they are until `removeEarlier(except:)`: a thumbnail written over
    /// one of the same name reuses its file, where removing them all first made the file system
    /// look for fresh inodes past the ones just freed (a tenth of what the report adds to a run).
    ///
    /// Only plain files of one link are kept to be written over: a symbolic link or a file linked
    /// elsewhere (a snapshot made with `cp -al`) is removed, so writing never reaches another file.
    /// The earlier page is removed either way: while the run writes over its thumbnails, or after
    /// a run that did not finish, it would show new pictures beside old rows.
    init(path: String, keepingEarlier: Bool = false) throws {
        url = URL(fileURLWithPath: path, isDirectory: true)
        let thumbs = url.appendingPathComponent("thumbs", isDirectory: true)
        var earlier: [String] = []
        if FileManager.default.fileExists(atPath: thumbs.path) {
            for name in try FileManager.default.contentsOfDirectory(atPath: thumbs.path) where name.hasSuffix(".jpg") {
                let file = thumbs.appendingPathComponent(name)
                if keepingEarlier && Self.isPlainSingleLinkFile(file.path) {
                    earlier.append("thumbs/" + name)
                } else {
                    try FileManager.default.removeItem(at: file)
                }
            }
        }
        self.earlier = earlier
        let page = url.appendingPathComponent("index.html")
        var status = stat()
        if lstat(page.path, &status) == 0 {
            try FileManager.default.removeItem(at: page)
        }
        try FileManager.default.createDirectory(at: thumbs, withIntermediateDirectories: true)
    }

    /// True when `path` is a regular file (not followed through a link) with one hard link.
    static func isPlainSingleLinkFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && status.st_nlink == 1
    }

    /// Removes the earlier report's thumbnails that this one did not write over.
    func removeEarlier(except written: Set<String>) {
        for name in earlier where !written.contains(name) {
            remove(name)
        }
    }

    /// The page's relative URL of thumbnail `number` (`thumbs/000042.jpg`).
    static func thumbnailName(_ number: Int, suffix: String = "") -> String {
        let digits = String(number)
        return "thumbs/" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + suffix + ".jpg"
    }

    /// Writes `image`'s JPEG as thumbnail `number` and returns its relative URL.
    func write(_ image: PreviewImage, number: Int, suffix: String = "") throws -> String {
        let name = Self.thumbnailName(number, suffix: suffix)
        try Self.write(image.jpeg, to: url.appendingPathComponent(name).path)
        return name
    }

    /// Writes `bytes` to a new file at `path` with plain POSIX calls: `Data.write` also syncs
    /// each file to disk and reads its extended attributes, which for a report's few hundred
    /// thumbnails cost about a tenth of what the report adds to a run. A symbolic link at `path`
    /// is not followed (the write fails).
    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let code = result == 0 ? .EIO : POSIXErrorCode(rawValue: errno) ?? .EIO
                close(descriptor)
                throw POSIXError(code)
            }
            written += result
        }
        guard close(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Removes the thumbnail at relative URL `name`.
    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }

    /// The index page's URL.
    var index: URL { url.appendingPathComponent("index.html") }
}
