import BlurTuning
import Foundation
import PhotoValidation
import SwiftCSV

/// Reads labelled photos from folders (`sharp/` and `blurry/` subfolders) or CSV manifests
/// (`path,label[,photo_type][,split]`, or the `file,...,blur,...` layout of `../shared/photos/manifest.csv`).
struct LabelledSetReader {
    /// The photo type of photos whose manifest does not say.
    let defaultType: PhotoType

    /// A manifest or folder that cannot be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Every labelled photo under `arguments`.
    func read(_ arguments: [String]) throws -> [LabelledPhoto] {
        try arguments.flatMap { argument -> [LabelledPhoto] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw Failure(description: "\(argument): no such file or folder")
            }
            return isDirectory.boolValue ? try folder(argument) : try manifest(argument)
        }
    }

    private func folder(_ path: String) throws -> [LabelledPhoto] {
        var photos: [LabelledPhoto] = []
        for label in [LabelledPhoto.Label.sharp, .blurry] {
            let sub = URL(fileURLWithPath: path).appendingPathComponent(label.rawValue).path
            let found = PhotoCollector().collect([sub])
            if !found.problems.isEmpty, FileManager.default.fileExists(atPath: sub) {
                throw Failure(description: found.problems.joined(separator: "; "))
            }
            photos += found.entries.map { LabelledPhoto(path: $0.path, label: label, photoType: defaultType) }
        }
        guard !photos.isEmpty else {
            throw Failure(description: "\(path): expected photos in sharp/ and blurry/ subfolders, or give a CSV manifest")
        }
        return photos
    }

    private func manifest(_ path: String) throws -> [LabelledPhoto] {
        let csv = try Self.manifest(at: path)
        let pathColumn = csv.header.contains("path") ? "path" : "file"
        let labelColumn = csv.header.contains("label") ? "label" : "blur"
        guard csv.header.contains(pathColumn), csv.header.contains(labelColumn) else {
            throw Failure(description: "\(path): needs the columns path,label[,photo_type] (or file,...,blur)")
        }
        return try csv.rows.enumerated().map { index, row in
            let line = index + 2
            guard let file = row[pathColumn], !file.isEmpty, let label = row[labelColumn].flatMap(LabelledPhoto.Label.init(rawValue:)) else {
                throw Failure(description: "\(path):\(line): needs a path and the label sharp or blurry")
            }
            var photoType = defaultType
            if let type = row["photo_type"], !type.isEmpty {
                guard let parsed = PhotoType(rawValue: type) else {
                    throw Failure(description: "\(path):\(line): photo_type must be room or inspiration, got '\(type)'")
                }
                photoType = parsed
            }
            var split = LabelledPhoto.Split.tune
            if let value = row["split"], !value.isEmpty {
                guard let parsed = LabelledPhoto.Split(rawValue: value) else {
                    throw Failure(description: "\(path):\(line): split must be tune or held, got '\(value)'")
                }
                split = parsed
            }
            return LabelledPhoto(path: Self.resolve(file, from: path), label: label, photoType: photoType, split: split)
        }
    }

    /// The CSV manifest at `path`.
    ///
    /// - Throws: `Failure` when it is not a readable CSV file.
    static func manifest(at path: String) throws -> CSV<Named> {
        do {
            return try CSV<Named>(url: URL(fileURLWithPath: path))
        } catch {
            throw Failure(description: "\(path): not a readable CSV manifest (\(error))")
        }
    }

    /// `file` as a manifest at `manifest` names it: a relative path is taken from the manifest's
    /// folder (kept as relative as the manifest's own, so reports do not name this machine's
    /// folders), or, when nothing is there and `orWorkingFolder`, from the working folder.
    static func resolve(_ file: String, from manifest: String, orWorkingFolder: Bool = false) -> String {
        let folder = (manifest as NSString).deletingLastPathComponent
        guard !file.hasPrefix("/"), !folder.isEmpty else { return file }
        let beside = (folder as NSString).appendingPathComponent(file)
        return orWorkingFolder && !FileManager.default.fileExists(atPath: beside) ? file : beside
    }
}
