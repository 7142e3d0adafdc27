import Foundation
import PhotoFormat

/// `tune --report DIR`: the photos of a tuning run as a page. Each section is one check on one
/// photo type (or one kind of pair) with one threshold: the score strip of every labelled photo,
/// clickable to its thumbnail, the photos misjudged at the current and at the recommended
/// threshold, and a slider that recomputes the confusion counts and balanced accuracy and shows
/// the `thresholds.json` the chosen values stand for.
struct TuningPage {
    /// How a section's threshold flags a photo (calls it positive: blurry, too dark, a duplicate).
    enum Rule: String, Encodable {
        /// Flagged when the score is under the threshold (blur, p90).
        case below
        /// Flagged when the score is at least the threshold (clipped share, detail correlation).
        case atLeast
        /// Flagged when the score is at most the threshold (hash distance).
        case atMost
    }

    /// One labelled photo, or one labelled pair (`path2`, `thumb2`), and its score.
    struct Item: Encodable {
        /// The photo (a pair's first photo).
        let path: String
        /// Its label as the set spells it.
        let label: String
        /// Whether the label is the section's positive one.
        let positive: Bool
        /// The score the threshold is compared with.
        let score: Double
        /// Whether it is in the held-aside part.
        let held: Bool
        /// The thumbnail's relative URL.
        let thumb: String?
        /// A pair's second photo and its thumbnail.
        var path2: String? = nil, thumb2: String? = nil
        /// A single photo's `blur_probability` and blur tile map, filled in by `write(arguments:)`.
        var blurProbability: Double? = nil, tileMap: ReportTileMap? = nil
    }

    /// One check on one photo type with one threshold.
    struct Section: Encodable {
        /// The fragment key of its slider (`blur-room`).
        let id: String
        /// Its title.
        let title: String
        /// What the score is.
        let scoreName: String
        /// The positive and negative labels, as the page names them.
        let positive: String, negative: String
        /// How the threshold flags a photo.
        let rule: Rule
        /// The current and the recommended threshold.
        let current: Double, recommended: Double
        /// The `thresholds.json` keys the slider's value goes to (`["room", "blur_threshold"]`).
        let setting: [String]
        /// Whether the setting is an integer.
        let integer: Bool
        /// Whether the strip's axis is logarithmic (scores with a long tail).
        let logarithmic: Bool
        /// A note under the title.
        let note: String
        /// The photos or pairs.
        var items: [Item]
    }

    private struct PageData: Encodable {
        let title: String
        let generated: String
        let arguments: [String]
        let sections: [Section]
        let unscored: [String]
    }

    private let folder: ReportFolder
    private var thumbs: [String: String] = [:]
    // Each decoded file's blur probability and tile map, for its cards.
    private var blurFigures: [String: (probability: Double?, tileMap: ReportTileMap?)] = [:]
    /// The sections so far.
    var sections: [Section] = []
    /// Files that were not scored, with why.
    var unscored: [String] = []

    /// A report into the folder at `path`.
    init(path: String) throws {
        folder = try ReportFolder(path: path)
    }

    /// Writes the thumbnail of each of `files` from its outcome (those that decoded).
    mutating func addThumbnails(of files: [String], outcomes: [PhotoFileCheck.Outcome]) {
        for (file, outcome) in zip(files, outcomes) {
            guard thumbs[file] == nil, case .validated(let output, let thumbnail?) = outcome else { continue }
            blurFigures[file] = (output.details.blurProbability, ReportTileMap(output.details))
            do {
                thumbs[file] = try folder.write(thumbnail, number: thumbs.count + 1)
            } catch {
                StandardStreams.error("photo-validator: report: \(file): thumbnail not written: \(error)")
            }
        }
    }

    /// The relative URL of `file`'s thumbnail, if it has one.
    func thumb(_ file: String) -> String? {
        thumbs[file]
    }

    /// Writes `index.html` and returns its path.
    func write(arguments: [String]) throws -> String {
        let sections = sections.map { section in
            var section = section
            section.items = section.items.map { item in
                guard item.path2 == nil, let figures = blurFigures[item.path] else { return item }
                var item = item
                item.blurProbability = figures.probability
                item.tileMap = figures.tileMap
                return item
            }
            return section
        }
        let data = PageData(title: "photo-validator tune report", generated: ISO8601DateFormatter().string(from: Date()),
                            arguments: arguments, sections: sections, unscored: unscored)
        return try TuningReportPage.page.write(into: folder, data: HTMLPage.encoder.encode(data))
    }
}
