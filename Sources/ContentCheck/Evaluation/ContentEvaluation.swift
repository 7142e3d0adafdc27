import Foundation
import PhotoValidation

/// The content classifier's record on a labelled set: per photo type a confusion matrix of the
/// expected outcome against the classifier's, tokens, estimated cost and latency percentiles.
package struct ContentEvaluation: Sendable {
    /// The outcomes compared: the content check's three verdicts, and `error` for no answer.
    package static let outcomes = ["pass", "content_rejected", "too_many_people", "error"]

    /// One photo judged.
    package struct Sample: Sendable {
        /// The photo's path as the manifest gives it.
        package let path: String
        /// The photo type it was judged as.
        package let photoType: PhotoType
        /// `pass`, `content_rejected` or `too_many_people`.
        package let expected: String
        /// The result of the check.
        package let result: ContentCheckResult

        /// Creates a sample.
        package init(path: String, photoType: PhotoType, expected: String, result: ContentCheckResult) {
            self.path = path
            self.photoType = photoType
            self.expected = expected
            self.result = result
        }

        /// The classifier's outcome: its verdict, or `error`.
        package var predicted: String {
            result.details.outcome == .classified ? (result.details.verdict ?? "error") : "error"
        }
    }

    /// The samples judged.
    package private(set) var samples: [Sample] = []
    /// Photos whose expected outcome is not the content check's (low resolution or blurry), by type.
    package private(set) var skipped: [PhotoType: Int] = [:]
    /// The model, for the report.
    package let model: String
    /// Dollars per million input tokens.
    package let inputPrice: Double
    /// Dollars per million output tokens.
    package let outputPrice: Double

    /// An empty evaluation of `model` priced at `inputPrice` and `outputPrice` dollars per million tokens.
    package init(model: String, inputPrice: Double, outputPrice: Double) {
        self.model = model
        self.inputPrice = inputPrice
        self.outputPrice = outputPrice
    }

    /// The content check's expected outcome in a manifest cell such as `pass`,
    /// `content_rejected` or `low_resolution+blurry`; nil when the cell expects the photo to fail
    /// an earlier check, so the content check would not run.
    package static func expectedOutcome(_ cell: String) -> String? {
        let codes = cell.lowercased().split(whereSeparator: { "+;, ".contains($0) }).map(String.init)
        if codes.contains("too_many_people") { return "too_many_people" }
        if codes.contains("content_rejected") { return "content_rejected" }
        return codes == ["pass"] ? "pass" : nil
    }

    /// Adds one judged photo.
    package mutating func add(_ sample: Sample) {
        samples.append(sample)
    }

    /// Counts a photo left out because its expected outcome is an earlier check's.
    package mutating func skip(_ photoType: PhotoType) {
        skipped[photoType, default: 0] += 1
    }

    /// `matrix[expected][predicted]` for `photoType`.
    package func confusionMatrix(for photoType: PhotoType) -> [String: [String: Int]] {
        var matrix: [String: [String: Int]] = [:]
        for sample in samples where sample.photoType == photoType {
            matrix[sample.expected, default: [:]][sample.predicted, default: 0] += 1
        }
        return matrix
    }

    /// The share of samples of `photoType` whose outcome was the expected one.
    package func accuracy(for photoType: PhotoType) -> Double? {
        let judged = samples.filter { $0.photoType == photoType }
        guard !judged.isEmpty else { return nil }
        return Double(judged.filter { $0.predicted == $0.expected }.count) / Double(judged.count)
    }

    /// Input and output tokens billed over every sample.
    package var tokens: (input: Int, output: Int) {
        samples.reduce((0, 0)) { ($0.0 + ($1.result.details.inputTokens ?? 0), $0.1 + ($1.result.details.outputTokens ?? 0)) }
    }

    /// Estimated cost in US dollars of every call made.
    package var estimatedCost: Double {
        Double(tokens.input) * inputPrice / 1e6 + Double(tokens.output) * outputPrice / 1e6
    }

    /// The `p`th percentile (0 to 100, nearest rank) of check latency in milliseconds.
    package func latencyPercentile(_ p: Double) -> Double? {
        let sorted = samples.map(\.result.milliseconds).sorted()
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The report as text: per photo type the matrix and accuracy, then tokens, cost, latency and
    /// the misjudged photos with the model's reasons.
    package var report: String {
        var lines: [String] = ["model \(model), prompt \(ContentPrompt.version)"]
        for photoType in PhotoType.allCases {
            let count = samples.filter { $0.photoType == photoType }.count
            guard count > 0 || skipped[photoType] != nil else { continue }
            lines.append("")
            lines.append("\(photoType.rawValue): \(count) photos judged, \(skipped[photoType] ?? 0) left out (expected to fail resolution or blur first)")
            let matrix = confusionMatrix(for: photoType)
            let width = 18
            func cell(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
            lines.append(cell("expected \\ got") + Self.outcomes.map(cell).joined())
            for expected in Self.outcomes.dropLast() {
                lines.append(cell(expected) + Self.outcomes.map { cell(String(matrix[expected]?[$0] ?? 0)) }.joined())
            }
            if let accuracy = accuracy(for: photoType) {
                lines.append(String(format: "accuracy %.3f", accuracy))
            }
        }
        let (input, output) = tokens
        let calls = max(1, samples.filter { !$0.result.details.cached && $0.result.details.inputTokens != nil }.count)
        lines.append("")
        lines.append("tokens: \(input) input, \(output) output (\(input / calls) and \(output / calls) per photo)")
        lines.append(String(format: "estimated cost: $%.4f ($%.5f per photo at $%g / $%g per million tokens)",
                            estimatedCost, estimatedCost / Double(calls), inputPrice, outputPrice))
        if let p50 = latencyPercentile(50), let p90 = latencyPercentile(90), let p99 = latencyPercentile(99), let max = latencyPercentile(100) {
            lines.append(String(format: "latency ms: p50 %.0f, p90 %.0f, p99 %.0f, max %.0f", p50, p90, p99, max))
        }
        let wrong = samples.filter { $0.predicted != $0.expected }
        if !wrong.isEmpty {
            lines.append("")
            lines.append("misjudged:")
            for sample in wrong {
                let why = sample.result.details.labels.map { "\($0.scene.rawValue), \($0.mainSubject.rawValue), design_related \($0.designRelated): \($0.reason)" }
                    ?? (sample.result.details.errorDetail ?? "")
                lines.append("  \(sample.photoType.rawValue) \(sample.path): expected \(sample.expected), got \(sample.predicted) (\(why))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
