import Foundation
import SwiftCSV

/// Reads a labelled duplicate-pair manifest: `a,b,label[,transform][,source][,split]`, labels
/// `duplicate` or `distinct` (what `datasets/make-duplicate-set` writes). A relative path is taken
/// from the manifest's folder, else from the working folder.
enum DuplicatePairReader {
    /// One labelled pair.
    struct Pair: Sendable {
        /// The first photo (the one a project already has).
        let first: String
        /// The second photo (the later upload).
        let second: String
        /// Whether the two are one photo.
        let duplicate: Bool
        /// How the second was made from the first, or what kind of distinct pair it is.
        let kind: String
        /// The source, for leave-one-source-out.
        let source: String
        /// Whether the pair is held aside.
        let held: Bool
    }

    /// The pairs of the manifest at `path`.
    ///
    /// - Throws: `LabelledSetReader.Failure` naming the file and line that cannot be used.
    static func read(_ path: String) throws -> [Pair] {
        let csv = try LabelledSetReader.manifest(at: path)
        guard ["a", "b", "label"].allSatisfy(csv.header.contains) else {
            throw LabelledSetReader.Failure(description: "\(path): needs the columns a,b,label[,transform][,source][,split]")
        }
        func resolved(_ file: String) -> String { LabelledSetReader.resolve(file, from: path, orWorkingFolder: true) }
        return try csv.rows.enumerated().map { index, row in
            guard let first = row["a"], !first.isEmpty, let second = row["b"], !second.isEmpty,
                  let label = row["label"], label == "duplicate" || label == "distinct" else {
                throw LabelledSetReader.Failure(description: "\(path):\(index + 2): needs a, b and the label duplicate or distinct")
            }
            return Pair(first: resolved(first), second: resolved(second), duplicate: label == "duplicate",
                        kind: row["transform"].flatMap { $0.isEmpty ? nil : $0 } ?? label,
                        source: row["source"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown", held: row["split"] == "held")
        }
    }
}
