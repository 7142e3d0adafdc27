import Foundation
import LumaAnalysis
import PhotoFormat
import PhotoValidation

/// `validate --report DIR`: gathers each photo's answer and thumbnail as the run judges them, in
/// path order, and writes `DIR/index.html` at the end. Every refused photo is kept with its
/// thumbnail; passed photos are sampled evenly over the run (every k-th, about `passedSample` of
/// them), or all kept with `allPassed`. Thumbnails are written as they arrive, so memory holds
/// only the rows; those of passed photos that the sample leaves out are removed at the end unless
/// a duplicate names them.
struct ValidationReport {
    /// One photo as the page shows it.
    struct Row: Encodable {
        /// The path as the run was given it.
        let path: String
        /// The path's folder (what the folder filter offers).
        let folder: String
        /// The photo type it was checked as.
        let type: String
        /// Whether it passed every check.
        let passed: Bool
        /// Its failure codes, in check order.
        let failures: [String]
        /// The user messages, `messages[i]` for `failures[i]`.
        let messages: [String]
        /// Displayed size and format, when the header could be read.
        let width: Int?, height: Int?, format: String?
        /// The file's size in bytes.
        let bytes: Int?
        /// The blur score and the threshold it was compared with.
        let blur: Double?, blurThreshold: Double
        /// The blur model's probability that the photo is blurred (`blur_probability`).
        let blurProbability: Double?
        /// The tiles the blur model evaluated, drawn over the thumbnail; nil when none.
        let tileMap: ReportTileMap?
        /// The exposure figures the exposure check judged: the 90th luma percentile and the clipped share.
        let p90: Int?, clipped: Double?
        /// The minimum shortest side for its type.
        let minimumShortSide: Int
        /// The earlier photo this one duplicates, and that photo's thumbnail.
        var duplicateOf: String?, duplicateThumb: String?
        /// Why it is `invalid_image`.
        let error: String?
        /// The thumbnail's relative URL, nil when the photo did not decode.
        let thumb: String?
    }

    /// A file that could not be read.
    struct Unreadable: Encodable {
        /// The path.
        let path: String
        /// Why.
        let reason: String
    }

    /// The counts the run printed in its summary line.
    struct Counts: Encodable {
        let passed: Int, failed: Int, unreadable: Int, skipped: Int
        /// Failures by code.
        let byCode: [String: Int]
    }

    /// The page's data.
    private struct PageData: Encodable {
        let title: String
        let generated: String
        let arguments: [String]
        let counts: Counts
        let codes: [String]
        let darkP90: Int
        let clippedShare: Double
        let passedSampled: Bool
        let rows: [Row]
        let unreadable: [Unreadable]
    }

    /// How many passed photos the page shows when not all of them.
    static let defaultPassedSample = 200

    private let folder: ReportFolder
    private let exposure: ExposureRule
    private let passedStride: Int
    private var rows: [Row] = []
    private var unreadable: [Unreadable] = []
    private var passedSeen = 0
    private var number = 0
    // Thumbnails of passed photos the sample leaves out, by path, removed at the end unless a duplicate names them.
    private var unsampled: [String: String] = [:]
    private var sampledThumbs: [String: String] = [:]
    private var referenced: Set<String> = []
    // Every thumbnail this report wrote, so an earlier report's others can be removed at the end.
    private var written: Set<String> = []

    /// A report into `path` of a run over `total` photos; passed photos sampled unless `allPassed`.
    init(path: String, total: Int, allPassed: Bool, exposure: ExposureRule, passedSample: Int = Self.defaultPassedSample) throws {
        folder = try ReportFolder(path: path, keepingEarlier: true)
        self.exposure = exposure
        passedStride = allPassed ? 1 : max(1, (total + passedSample - 1) / max(1, passedSample))
    }

    /// Adds the answer for the photo at `path` with its thumbnail, if it decoded.
    mutating func add(path: String, output: ValidatePhotoOutput, thumbnail: PreviewImage?) {
        number += 1
        var thumb: String?
        if let thumbnail {
            do {
                let name = try folder.write(thumbnail, number: number)
                written.insert(name)
                thumb = name
            } catch {
                StandardStreams.error("photo-validator: report: \(path): thumbnail not written: \(error)")
            }
        }
        let details = output.details
        var row = Row(
            path: path, folder: (path as NSString).deletingLastPathComponent, type: details.photoType.rawValue,
            passed: output.passed, failures: output.failures.map(\.rawValue), messages: output.messages,
            width: details.width, height: details.height, format: details.format,
            bytes: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue,
            blur: details.blurScore, blurThreshold: details.blurThreshold,
            blurProbability: details.blurProbability, tileMap: ReportTileMap(details),
            p90: details.exposure?.p90, clipped: details.exposure?.highlightShare,
            minimumShortSide: details.minimumShortSide, duplicateOf: details.duplicateOf, duplicateThumb: nil,
            error: details.error.map { code in details.errorDetail.map { "\(code): \($0)" } ?? code },
            thumb: thumb
        )
        if let original = details.duplicateOf {
            referenced.insert(original)
            row.duplicateThumb = sampledThumbs[original] ?? unsampled[original]
        }
        if output.passed {
            defer { passedSeen += 1 }
            if passedSeen % passedStride != 0 {
                if let thumb { unsampled[path] = thumb }
                return
            }
            if let thumb { sampledThumbs[path] = thumb }
        }
        rows.append(row)
    }

    /// Adds a file that could not be read.
    mutating func addUnreadable(path: String, reason: String) {
        unreadable.append(Unreadable(path: path, reason: reason))
    }

    /// Writes `index.html` with the run's counts and returns its path.
    func finish(summary: BatchSummary, arguments: [String]) throws -> String {
        for (path, thumb) in unsampled where !referenced.contains(path) {
            folder.remove(thumb)
        }
        folder.removeEarlier(except: written)
        let counts = Counts(
            passed: summary.passed, failed: summary.failed, unreadable: summary.errors, skipped: summary.skipped,
            byCode: Dictionary(uniqueKeysWithValues: summary.failuresByCode.map { ($0.key.rawValue, $0.value) })
        )
        let data = PageData(
            title: "photo-validator validate report", generated: ISO8601DateFormatter().string(from: Date()),
            arguments: arguments, counts: counts, codes: FailureCode.allCases.map(\.rawValue),
            darkP90: exposure.darkP90, clippedShare: exposure.clippedShare, passedSampled: passedStride > 1,
            rows: rows, unreadable: unreadable
        )
        return try ValidationReportPage.page.write(into: folder, data: HTMLPage.encoder.encode(data))
    }
}
