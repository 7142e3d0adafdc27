/// The record a report folder keeps of the files photo-validator wrote in it
/// (`.photo-validator-report`), so that a later report replaces or removes those files and no
/// other: a header line, then one name a line relative to the folder. Only names a report
/// generates (`index.html`, `thumbs/` and digits with an optional `-digits` suffix and `.jpg`)
/// are ever kept, whatever the file says. Lines are appended before each file is created, so a
/// run that is killed leaves no file of its own unrecorded; a name listed for a file that was never
/// made is dropped when the folder is next opened.
struct ReportManifest: Equatable {
    /// The first line, which tells the record from any other file of that name.
    static let header = "photo-validator report folder: the files it wrote here; it replaces or removes only these"

    /// The names recorded.
    var names: Set<String>

    /// A record of `names`.
    init(names: Set<String> = []) {
        self.names = names
    }

    /// The record `bytes` holds, or nil when they are not one (no header line).
    init?(bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first.map(String.init) == Self.header else { return nil }
        names = Set(lines.dropFirst().map(String.init).filter(Self.isGenerated))
    }

    /// The whole file: the header and the names in order.
    var bytes: [UInt8] {
        Array(([Self.header] + names.sorted()).joined(separator: "\n").utf8) + [UInt8(ascii: "\n")]
    }

    /// The line that records `name`, to append.
    static func line(_ name: String) -> [UInt8] {
        Array(name.utf8) + [UInt8(ascii: "\n")]
    }

    /// Whether a report makes files named `name`: `index.html` or `thumbs/000042.jpg`, `thumbs/000042-1024.jpg`.
    static func isGenerated(_ name: String) -> Bool {
        if name == "index.html" { return true }
        guard name.hasPrefix("thumbs/") else { return false }
        return isThumbnailFile(String(name.dropFirst("thumbs/".count)))
    }

    /// Whether `file` (a name inside `thumbs/`) is one a report gives a thumbnail: six or more
    /// digits, optionally `-` and digits, then `.jpg`.
    static func isThumbnailFile(_ file: String) -> Bool {
        guard file.hasSuffix(".jpg") else { return false }
        let parts = file.dropLast(4).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        return parts[0].count >= 6 && isDigits(parts[0]) && (parts.count == 1 || isDigits(parts[1]))
    }
}
