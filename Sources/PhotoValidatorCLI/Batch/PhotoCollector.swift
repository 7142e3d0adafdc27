import Foundation
import PhotoStructure
#if canImport(Glibc)
import Glibc
#endif

/// Finds the files to validate under the paths given on the command line.
///
/// Folders are walked recursively in name order, following symbolic links but never into a folder
/// already visited (so a symlink loop is reported, not followed forever). Hidden entries (names
/// starting with ".") are skipped. In a folder only image files are taken (by extension, or by
/// the `include` globs when any are given) and the rest are counted as skipped; a file named on the
/// command line is always taken. Problems are collected, never fatal.
struct PhotoCollector {
    /// The extensions of the formats `validate` reads, lower case; compared case-insensitively.
    static let imageExtensions = Set(ImageFormatProfile.all.flatMap(\.fileExtensions))

    /// Globs a folder's file must match (any of them) instead of having an image extension.
    var include: [String] = []
    /// Globs that leave a folder's file out even when it has an image extension.
    var exclude: [String] = []

    /// A file to validate.
    struct Entry: Sendable, Equatable {
        /// The path to open, as found.
        let path: String
        /// The path relative to the command-line argument it was found under (the shard key).
        let relativePath: String
    }

    /// What was found: files in a stable order, and the paths that could not be walked.
    struct Result {
        /// Files, in argument order and then name order.
        var entries: [Entry] = []
        /// One line per path that was skipped, saying why.
        var problems: [String] = []
        /// Files in folders that were not taken: not images, or left out by the globs.
        var skipped = 0
    }

    private let fileManager = FileManager.default

    /// Collects the files under `arguments`.
    func collect(_ arguments: [String]) -> Result {
        var result = Result()
        var visited = Set<String>()
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                result.problems.append("\(argument): no such file or folder (or a broken symbolic link)")
                continue
            }
            if isDirectory.boolValue {
                walk(folder: argument, relative: "", visited: &visited, into: &result)
            } else {
                result.entries.append(Entry(path: argument, relativePath: argument))
            }
        }
        return result
    }

    private func walk(folder: String, relative: String, visited: inout Set<String>, into result: inout Result) {
        let canonical = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard visited.insert(canonical).inserted else {
            result.problems.append("\(folder): symbolic link loop (leads back to \(canonical)); skipped")
            return
        }
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            result.problems.append("\(folder): cannot list the folder (\(Self.reason(error))); skipped")
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                result.problems.append("\(path): broken symbolic link; skipped")
                continue
            }
            if isDirectory.boolValue {
                walk(folder: path, relative: relativePath, visited: &visited, into: &result)
            } else if takes(relativePath: relativePath, name: name) {
                result.entries.append(Entry(path: path, relativePath: relativePath))
            } else {
                result.skipped += 1
            }
        }
    }

    /// Whether a file found in a folder is validated: it matches an `include` glob (or, with none,
    /// has an image extension) and no `exclude` glob. A glob matches the path relative to the
    /// argument or the file's name.
    func takes(relativePath: String, name: String) -> Bool {
        let wanted = include.isEmpty
            ? Self.imageExtensions.contains((name as NSString).pathExtension.lowercased())
            : include.contains { Self.matches($0, relativePath: relativePath, name: name) }
        return wanted && !exclude.contains { Self.matches($0, relativePath: relativePath, name: name) }
    }

    private static func matches(_ glob: String, relativePath: String, name: String) -> Bool {
        fnmatch(glob, relativePath, 0) == 0 || fnmatch(glob, name, 0) == 0
    }

    /// A short reason for a file-system error.
    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           let message = underlying.userInfo[NSLocalizedDescriptionKey] as? String {
            return message
        }
        return nsError.localizedDescription
    }
}
