import Foundation

/// The tuning report as an SVG picture: per photo type, the score distributions of both labels on
/// a log axis with the current and recommended thresholds, and the ROC curve.
package enum TuningChart {
    /// The SVG document.
    package static func svg(_ report: TuningReport) -> String {
        let panelHeight = 260.0
        let width = 960.0
        let height = 40 + panelHeight * Double(max(1, report.types.count))
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="DejaVu Sans, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="20" y="24" font-size="15">Blur score (edge sharpness, weakest orientation, analysis size \(report.analysisSize)) by label; ROC of blurry detection</text>

            """
        for (index, type) in report.types.enumerated() {
            svg += panel(type, top: 40 + Double(index) * panelHeight, height: panelHeight)
        }
        return svg + "</svg>\n"
    }

    private static func panel(_ type: TuningReport.TypeReport, top: Double, height: Double) -> String {
        let left = 60.0, plotWidth = 560.0, plotTop = top + 30, plotHeight = height - 80
        let scores = type.photos.map { max($0.score, 0.01) }
        let low = log10(max(0.01, (scores.min() ?? 1) / 1.5)), high = log10((scores.max() ?? 100) * 1.5)
        func x(_ score: Double) -> Double { left + (log10(max(score, 0.01)) - low) / max(high - low, 1e-9) * plotWidth }
        var out = "<text x=\"\(left)\" y=\"\(top + 18)\" font-size=\"13\">\(type.photoType.rawValue): \(type.sharp) sharp, \(type.blurry) blurry, ROC AUC \(type.rocAUC.map { format($0, 3) } ?? "n/a")</text>\n"
        out += "<rect x=\"\(left)\" y=\"\(plotTop)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
        for decade in Int(low.rounded(.down))...Int(high.rounded(.up)) {
            let value = pow(10, Double(decade))
            let position = x(value)
            guard position >= left, position <= left + plotWidth else { continue }
            out += "<line x1=\"\(format(position, 1))\" y1=\"\(plotTop)\" x2=\"\(format(position, 1))\" y2=\"\(plotTop + plotHeight)\" stroke=\"#eee\"/>"
            out += "<text x=\"\(format(position, 1))\" y=\"\(plotTop + plotHeight + 14)\" text-anchor=\"middle\">\(value >= 1 ? String(Int(value)) : String(value))</text>\n"
        }
        // One row of dots per label; jitter is deterministic (by index) so reruns draw the same picture.
        for (index, photo) in type.photos.enumerated() {
            let row = photo.label == .sharp ? 0.3 : 0.7
            let jitter = Double((index * 37) % 23) / 23.0 * 0.16 - 0.08
            let colour = photo.label == .sharp ? "#2a9d4b" : "#d1495b"
            out += "<circle cx=\"\(format(x(photo.score), 1))\" cy=\"\(format(plotTop + plotHeight * (row + jitter), 1))\" r=\"3\" fill=\"\(colour)\" fill-opacity=\"0.7\"/>"
        }
        out += "\n<text x=\"\(left + 4)\" y=\"\(plotTop + plotHeight * 0.3 - 24)\" fill=\"#2a9d4b\">sharp</text>"
        out += "<text x=\"\(left + 4)\" y=\"\(plotTop + plotHeight * 0.7 - 24)\" fill=\"#d1495b\">blurry</text>\n"
        for (label, metrics, colour) in [("current", type.current, "#555"), ("recommended", type.recommended, "#1d4ed8")] {
            let position = x(metrics.matrix.threshold)
            out += "<line x1=\"\(format(position, 1))\" y1=\"\(plotTop)\" x2=\"\(format(position, 1))\" y2=\"\(plotTop + plotHeight)\" stroke=\"\(colour)\" stroke-dasharray=\"4 3\"/>"
            out += "<text x=\"\(format(position + 3, 1))\" y=\"\(plotTop + (label == "current" ? 12 : 26))\" fill=\"\(colour)\">\(label) \(format(metrics.matrix.threshold, 1)) (bal. acc. \(format(metrics.balancedAccuracy, 3)))</text>\n"
        }
        // ROC curve.
        let rocLeft = 700.0, rocSize = plotHeight
        out += "<rect x=\"\(rocLeft)\" y=\"\(plotTop)\" width=\"\(rocSize)\" height=\"\(rocSize)\" fill=\"none\" stroke=\"#999\"/>"
        out += "<line x1=\"\(rocLeft)\" y1=\"\(plotTop + rocSize)\" x2=\"\(rocLeft + rocSize)\" y2=\"\(plotTop)\" stroke=\"#ddd\"/>"
        let points = ([(0.0, 0.0)] + type.candidates.map { (1 - $0.matrix.specificity, $0.recall) } + [(1.0, 1.0)])
            .map { "\(format(rocLeft + $0.0 * rocSize, 1)),\(format(plotTop + rocSize - $0.1 * rocSize, 1))" }
        out += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#1d4ed8\" stroke-width=\"2\"/>"
        out += "<text x=\"\(rocLeft)\" y=\"\(plotTop + rocSize + 14)\">false positive rate (sharp called blurry)</text>"
        out += "<text x=\"\(rocLeft - 6)\" y=\"\(plotTop + 10)\" text-anchor=\"end\">recall</text>\n"
        return out
    }

    private static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
