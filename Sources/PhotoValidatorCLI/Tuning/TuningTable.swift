import BlurTuning
import Foundation
import PhotoValidation

/// The readable summary of a tuning report on standard output.
enum TuningTable {
    static func print(_ report: TuningReport) {
        StandardStreams.output("Blur tuning at analysis size \(report.analysisSize); recommendation: \(report.objective)")
        for type in report.types {
            StandardStreams.output("\n\(type.photoType.rawValue): \(type.sharp) sharp, \(type.blurry) blurry; ROC AUC \(type.rocAUC.map { f($0, 4) } ?? "n/a (one label only)")")
            StandardStreams.output(row(["", "threshold", "precision", "recall", "F1", "bal. acc.", "TP", "FP", "TN", "FN"]))
            StandardStreams.output(row(["current"] + cells(type.current)))
            StandardStreams.output(row(["recommended"] + cells(type.recommended)))
            // The candidates around the recommendation; report.json has every one.
            let index = type.candidates.firstIndex { $0.matrix.threshold == type.recommended.matrix.threshold } ?? 0
            StandardStreams.output("  candidates near the recommendation:")
            for candidate in type.candidates[max(0, index - 5)..<min(type.candidates.count, index + 6)] {
                StandardStreams.output(row([""] + cells(candidate)))
            }
            if let held = type.held {
                StandardStreams.output("  held aside (never used to choose): \(held.sharp) sharp, \(held.blurry) blurry; ROC AUC \(held.rocAUC.map { f($0, 4) } ?? "n/a")")
                StandardStreams.output(row(["current"] + cells(held.current)))
                StandardStreams.output(row(["recommended"] + cells(held.recommended)))
                StandardStreams.output("  held-aside photos misjudged at \(f(type.recommended.matrix.threshold, 2)) (\(held.misjudged.count)), worst first:")
                for photo in held.misjudged.prefix(15) {
                    StandardStreams.output("    \(photo.label.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) score \(f(photo.score, 2).padding(toLength: 9, withPad: " ", startingAt: 0)) \(photo.path)")
                }
            }
            let misjudged = type.misjudged.prefix(15)
            StandardStreams.output("  misjudged at \(f(type.recommended.matrix.threshold, 2)) (\(type.misjudged.count)), worst first:")
            for photo in misjudged {
                StandardStreams.output("    \(photo.label.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) score \(f(photo.score, 2).padding(toLength: 9, withPad: " ", startingAt: 0)) \(photo.path)")
            }
        }
    }

    private static func cells(_ metrics: ThresholdMetrics) -> [String] {
        let matrix = metrics.matrix
        return [f(matrix.threshold, 2), f(metrics.precision, 3), f(metrics.recall, 3), f(metrics.f1, 3), f(metrics.balancedAccuracy, 3),
                String(matrix.truePositives), String(matrix.falsePositives), String(matrix.trueNegatives), String(matrix.falseNegatives)]
    }

    private static func row(_ cells: [String]) -> String {
        "  " + cells.enumerated().map { index, cell in
            index == 0 ? cell.padding(toLength: 12, withPad: " ", startingAt: 0) : String(repeating: " ", count: max(0, 10 - cell.count)) + cell
        }.joined(separator: " ")
    }

    private static func f(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
