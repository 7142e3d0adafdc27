import Foundation
import PhotoValidation

/// One photo's result as `validate` prints it: its path and its ValidatePhotoOutput.
struct ValidationRecord: Encodable, Sendable {
    /// The path of the photo.
    let path: String
    /// The answer for it.
    let output: ValidatePhotoOutput

    private enum CodingKeys: String, CodingKey {
        case path, passed, failures, messages, details
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(output.passed, forKey: .passed)
        try container.encode(output.failures, forKey: .failures)
        try container.encode(output.messages, forKey: .messages)
        try container.encode(output.details, forKey: .details)
    }

    /// The CSV columns, in order.
    static let csvHeader = [
        "path", "passed", "failures", "messages", "photo_type", "format", "width", "height", "orientation",
        "blur_score", "laplacian_variance", "blur_probability", "blur_threshold", "minimum_short_side", "analysis_width",
        "analysis_height", "decode_scale", "exposure_p10", "exposure_p90", "exposure_clipped_share", "error", "error_detail", "total_ms",
    ]

    /// The CSV cells, matching `csvHeader`; lists are joined with ";".
    var csvFields: [String] {
        let details = output.details
        func text(_ value: (some CustomStringConvertible)?) -> String { value.map(\.description) ?? "" }
        return [
            path, String(output.passed), output.failures.map(\.rawValue).joined(separator: ";"),
            output.messages.joined(separator: ";"), details.photoType.rawValue, text(details.format),
            text(details.width), text(details.height), text(details.orientation),
            details.blurScore.map { Self.number($0) } ?? "", details.laplacianVariance.map { Self.number($0) } ?? "",
            details.blurProbability.map { Self.number($0) } ?? "", Self.number(details.blurThreshold), String(details.minimumShortSide), text(details.analysisWidth),
            text(details.analysisHeight), text(details.decodeScale),
            // The exposure check's figures: the 10th and 90th luma percentiles and the share clipped to white.
            text(details.exposure?.p10), text(details.exposure?.p90), details.exposure.map { Self.number($0.highlightShare) } ?? "",
            text(details.error), text(details.errorDetail),
            Self.number(details.timingsMs.total),
        ]
    }

    /// One aligned line for the table format.
    var tableLine: String {
        let details = output.details
        let verdict = output.passed ? "PASS" : "FAIL"
        let size = details.width.map { "\($0)x\(details.height ?? 0)" } ?? "-"
        let blur = details.blurScore.map { String(format: "%.1f", $0) } ?? "-"
        let failures = output.failures.isEmpty ? "-" : output.failures.map(\.rawValue).joined(separator: ",")
        return [
            verdict.padding(toLength: 5, withPad: " ", startingAt: 0),
            failures.padding(toLength: 28, withPad: " ", startingAt: 0),
            size.padding(toLength: 11, withPad: " ", startingAt: 0),
            (details.format ?? "-").padding(toLength: 5, withPad: " ", startingAt: 0),
            blur.padding(toLength: 9, withPad: " ", startingAt: 0),
            path,
        ].joined(separator: " ")
    }

    /// The table's header line.
    static let tableHeader = ["RESULT", "FAILURES".padding(toLength: 28, withPad: " ", startingAt: 0),
                              "SIZE       ", "FMT  ", "BLUR     ", "PATH"].joined(separator: " ")

    private static func number(_ value: Double) -> String {
        String(format: "%.6g", value)
    }
}
