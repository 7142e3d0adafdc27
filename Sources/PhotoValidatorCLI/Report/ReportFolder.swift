import Foundation
import PhotoFormat

/// The folder a report is written to: `index.html` and `thumbs/`, the thumbnails named by number
/// (never by the photo's own name, which is untrusted), and `.photo-validator-report`, the record
/// of the files the report wrote (`ReportManifest`).
///
/// The folder is opened once and every file is created, replaced or removed relative to it
/// (`ReportDirectory`), so a link put in the path later leads nowhere. A symbolic link anywhere
/// in what the report owns (the folder itself, `thumbs/`, the page, a thumbnail's name) is
/// refused with `report_folder_link` rather than followed or removed, and a file the record does
/// not list is never replaced nor removed: one in the way of the report is refused with
/// `report_folder_foreign_file`, and any other is left as it is.
final class ReportFolder {
    /// The bounds of every report thumbnail: at most 256 px on the long edge, JPEG quality 80.
    static let thumbnailBounds = PreviewBounds(maximumLongEdge: 256, maximumPixels: 256 * 256, quality: 80)
    /// The name of the record of the files the report wrote, in the folder.
    static let manifestName = ".photo-validator-report"
    /// The largest record read: a million thumbnails' names.
    static let manifestLimit = 32 << 20

    /// The folder.
    let url: URL
    /// An earlier report's thumbnails left in `thumbs/` (relative URLs), when kept at the start.
    let earlier: [String]
    private let folder: ReportDirectory
    private let thumbs: ReportDirectory
    // The files this tool wrote in the folder, as its record lists them.
    private var manifest: ReportManifest

    /// Opens the folder at `path`, created when missing, and its `thumbs/`, emptied of an earlier
    /// report's thumbnails, or with `keepingEarlier` left as they are until `removeEarlier(except:)`:
    /// a thumbnail written over one of the same name reuses its file, where removing them all first
    /// made the file system look for fresh inodes past the ones just freed (a tenth of what the
    /// report adds to a run). The earlier page is removed either way: while the run writes over
    /// its thumbnails, or after a run that did not finish, it would show new pictures beside old rows.
    /// Nothing is removed before everything the report owns has been looked at and found its own.
    init(path: String, keepingEarlier: Bool = false) throws(ReportFolderError) {
        url = URL(fileURLWithPath: path, isDirectory: true)
        let root = url.path
        let folder: ReportDirectory, thumbs: ReportDirectory
        do {
            folder = try ReportDirectory.open(path: root)
        } catch {
            throw ReportDirectory.kind(atPath: root) == .link ? ReportFolderError(.link, path: root) : ReportFolderError(error, path: root)
        }
        let place = { (name: String) in (root as NSString).appendingPathComponent(name) }
        var recorded = ReportManifest()
        let record: [UInt8]?
        do {
            record = try folder.read(Self.manifestName, limit: Self.manifestLimit)
        } catch {
            throw Self.refusal(error, at: place(Self.manifestName), kind: try? folder.kind(Self.manifestName))
        }
        if let record {
            guard let parsed = ReportManifest(bytes: record) else { throw ReportFolderError(.foreignFile, path: place(Self.manifestName)) }
            recorded = parsed
        }
        do {
            thumbs = try folder.folder("thumbs")
        } catch {
            throw Self.refusal(error, at: place("thumbs"), kind: try? folder.kind("thumbs"))
        }
        // Everything is looked at before anything is removed: a refusal leaves the folder as it was.
        var earlier: [String] = [], removals: [(ReportDirectory, String)] = []
        switch try Self.look(at: "index.html", in: folder, recorded: recorded, path: place("index.html")) {
        case .mine: removals.append((folder, "index.html"))
        case .absent: break
        }
        let names: [String]
        do {
            names = try thumbs.names()
        } catch {
            throw ReportFolderError(error, path: place("thumbs"))
        }
        for file in names.sorted() where ReportManifest.isThumbnailFile(file) {
            let name = "thumbs/" + file
            guard try Self.look(at: file, in: thumbs, recorded: recorded, name: name, path: place(name)) == .mine else { continue }
            if keepingEarlier {
                earlier.append(name)
            } else {
                removals.append((thumbs, file))
            }
        }
        for (directory, file) in removals {
            do {
                try directory.remove(file)
            } catch {
                throw ReportFolderError(error, path: place(directory === thumbs ? "thumbs/" + file : file))
            }
        }
        self.folder = folder
        self.thumbs = thumbs
        self.earlier = earlier
        manifest = ReportManifest(names: Set(earlier))
        try saveManifest()
    }

    /// What a name the report generates is at the start.
    private enum Found {
        /// Nothing is there.
        case absent
        /// A regular file the record lists.
        case mine
    }

    /// Whether `file` in `directory` (recorded as `name`) is absent or the report's own regular
    /// file; a link, or anything the record does not list, is refused.
    private static func look(at file: String, in directory: ReportDirectory, recorded: ReportManifest,
                             name: String? = nil, path: String) throws(ReportFolderError) -> Found {
        let kind: ReportDirectory.Kind?
        do {
            kind = try directory.kind(file)
        } catch {
            throw ReportFolderError(error, path: path)
        }
        switch kind {
        case nil: return .absent
        case .link?: throw ReportFolderError(.link, path: path)
        case .file? where recorded.names.contains(name ?? file): return .mine
        default: throw ReportFolderError(.foreignFile, path: path)
        }
    }

    /// The refusal for `error` at `path`, where `kind` is what the name turned out to be.
    private static func refusal(_ error: POSIXError, at path: String, kind: ReportDirectory.Kind?) -> ReportFolderError {
        switch kind {
        case .link?: ReportFolderError(.link, path: path)
        case .file?, .other?: error.code == .EEXIST || error.code == .ENOTDIR ? ReportFolderError(.notAFolder, path: path) : ReportFolderError(error, path: path)
        default: ReportFolderError(error, path: path)
        }
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
    func write(_ image: PreviewImage, number: Int, suffix: String = "") throws(ReportFolderError) -> String {
        let name = Self.thumbnailName(number, suffix: suffix)
        try write(image.jpeg, as: name)
        return name
    }

    /// Writes `bytes` as the file the report names `name` (`index.html` or `thumbs/…`): over the
    /// report's own file of that name, or as a new file recorded before it is made. A file the
    /// record does not list, a link, or a file another link shares is never written through.
    func write(_ bytes: [UInt8], as name: String) throws(ReportFolderError) {
        precondition(ReportManifest.isGenerated(name), "a report writes only the names it generates")
        let (directory, file) = name.hasPrefix("thumbs/") ? (thumbs, String(name.dropFirst("thumbs/".count))) : (folder, name)
        do {
            if manifest.names.contains(name) {
                if try directory.overwrite(file, bytes: bytes) { return }
                // A file of more links (a snapshot made with `cp -al`) keeps its bytes there: this name gets a new file.
                if case .file? = try directory.kind(file) { try directory.remove(file) }
            } else {
                try folder.append(Self.manifestName, bytes: ReportManifest.line(name))
                manifest.names.insert(name)
            }
            try directory.create(file, bytes: bytes)
        } catch {
            let path = url.appendingPathComponent(name).path
            switch try? directory.kind(file) {
            case .link?: throw ReportFolderError(.link, path: path)
            case .folder?, .other?: throw ReportFolderError(.foreignFile, path: path)
            case .file? where error.code == .EEXIST: throw ReportFolderError(.foreignFile, path: path)
            default: throw ReportFolderError(error, path: path)
            }
        }
    }

    /// Removes the report's own thumbnail at relative URL `name`; anything else is left.
    func remove(_ name: String) {
        guard name.hasPrefix("thumbs/"), manifest.names.contains(name) else { return }
        let file = String(name.dropFirst("thumbs/".count))
        guard case .file? = try? thumbs.kind(file) else { return }
        if (try? thumbs.remove(file)) != nil {
            manifest.names.remove(name)
        }
    }

    /// Writes the page as `index.html`, brings the record down to the files the report keeps, and
    /// returns the page's path.
    func writePage(_ bytes: [UInt8]) throws(ReportFolderError) -> String {
        try write(bytes, as: "index.html")
        try saveManifest()
        return index.path
    }

    /// Replaces the record with the names the report keeps now: written whole under a new name,
    /// then renamed over the old one, so the record is never half written.
    private func saveManifest() throws(ReportFolderError) {
        let temporary = Self.manifestName + "." + UUID().uuidString + ".tmp"
        do {
            try folder.create(temporary, bytes: manifest.bytes)
            try folder.rename(temporary, to: Self.manifestName)
        } catch {
            try? folder.remove(temporary)
            throw ReportFolderError(error, path: url.appendingPathComponent(Self.manifestName).path)
        }
    }

    /// The index page's URL.
    var index: URL { url.appendingPathComponent("index.html") }
}
