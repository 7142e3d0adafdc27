import Foundation
import LumaAnalysis
import SwiftCSV

/// Reads the manifest of a labelled exposure set: `path,label[,split][,source]`, labels `usable`,
/// `too_dark` or `overexposed` (what `datasets/make-exposure-set` writes); paths relative to the manifest.
enum ExposureSetReader {
    /// One labelled file.
    struct Entry: Sendable {
        /// The file.
        let path: String
        /// Its label.
        let label: ExposureVerdict
        /// Whether it is held aside.
        let held: Bool
        /// Its source (`unknown` when the manifest has none).
        let source: String
    }

    /// The entries of the manifest at `path`.
    ///
    /// - Throws: `LabelledSetReader.Failure` naming the file and line that cannot be used.
    static func read(_ path: String) throws -> [Entry] {
        let csv = try LabelledSetReader.manifest(at: path)
        guard csv.header.contains("path"), csv.header.contains("label") else {
            throw LabelledSetReader.Failure(description: "\(path): needs the columns path,label[,split][,source]")
        }
        return try csv.rows.enumerated().map { index, row in
            guard let file = row["path"], !file.isEmpty, let label = row["label"].flatMap(ExposureVerdict.init(rawValue:)) else {
                throw LabelledSetReader.Failure(description: "\(path):\(index + 2): needs a path and the label usable, too_dark or overexposed")
            }
            return Entry(path: LabelledSetReader.resolve(file, from: path), label: label, held: row["split"] == "held", source: row["source"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown")
        }
    }
}
