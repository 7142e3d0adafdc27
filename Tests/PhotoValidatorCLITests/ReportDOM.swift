import Foundation

/// Reads what the report pages rendered out of the DOM headless Chromium serialized.
enum ReportDOM {
    /// A photo card: the group it is under (validate), its path and the thumbnails it shows.
    struct Card {
        let code: String?
        let path: String
        let thumbs: [String]
        let body: String
    }

    /// One tile of a blur tile map: its rectangle in the SVG's coordinates and its tooltip.
    struct Tile {
        let x: Double, y: Double, width: Double, height: Double
        let title: String
    }

    /// The blur tile map drawn in a card's `body`: the SVG's viewBox and its tiles; nil without one.
    static func tileMap(_ body: String) -> (viewBox: [Double], tiles: [Tile])? {
        guard let svg = firstMatch(#"<svg class="tilemap" viewBox="([^"]*)"[^>]*>(.*?)</svg>"#, in: body) else { return nil }
        let tiles = matches(#"<rect class="tile" x="([^"]*)" y="([^"]*)" width="([^"]*)" height="([^"]*)"[^>]*><title>([^<]*)</title></rect>"#, in: svg[2]).map {
            Tile(x: Double($0[1]) ?? -1, y: Double($0[2]) ?? -1, width: Double($0[3]) ?? -1, height: Double($0[4]) ?? -1, title: decoded($0[5]))
        }
        return (svg[1].split(separator: " ").compactMap { Double($0) }, tiles)
    }

    /// The number in the validate page's big count `name` (passed, refused, unreadable, skipped).
    static func bigCount(_ dom: String, _ name: String) -> Int? {
        firstMatch(#"data-count="\#(name)"><b>(\d+)</b>"#, in: dom).flatMap { Int($0[1]) }
    }

    /// The validate page's count of failure code `code`.
    static func codeCount(_ dom: String, _ code: String) -> Int? {
        firstMatch(#"<td class="num" data-code="\#(code)">(\d+)</td>"#, in: dom).flatMap { Int($0[1]) }
    }

    /// Every photo card of `dom`, in order.
    static func cards(_ dom: String) -> [Card] {
        matches(#"<figure class="card"( data-code="([^"]*)")? data-path="([^"]*)">(.*?)</figure>"#, in: dom).map { groups in
            Card(code: groups[2].isEmpty ? nil : groups[2], path: decoded(groups[3]),
                 thumbs: matches(#"src="(thumbs/[^"]+)""#, in: groups[4]).map { $0[1] }, body: groups[4])
        }
    }

    /// The tune page's cards under "misjudged at the `which` threshold" (current, recommended).
    static func misjudged(_ dom: String, _ which: String) -> [Card] {
        var cards: [Card] = []
        var rest = Substring(dom)
        while let start = rest.range(of: #"data-misjudged="\#(which)""#) {
            let after = rest[start.upperBound...]
            let end = after.range(of: "data-misjudged=")?.lowerBound ?? after.range(of: "</section>")?.lowerBound ?? after.endIndex
            cards += Self.cards(String(after[..<end]))
            rest = after[end...]
        }
        return cards
    }

    /// The tune page's metrics row `row` (current, recommended, slider): cell name to text.
    static func metrics(_ dom: String, row: String) -> [String: String] {
        guard let cells = firstMatch(#"data-row="\#(row)">(.*?)</tr>"#, in: dom)?[1] else { return [:] }
        return Dictionary(matches(#"data-cell="(\w+)">([^<]*)<"#, in: cells).map { ($0[1], decoded($0[2])) }, uniquingKeysWith: { first, _ in first })
    }

    /// The text of the element with `id` (no markup inside).
    static func element(_ dom: String, id: String) -> String? {
        firstMatch(#"id="\#(id)">([^<]*)<"#, in: dom).map { decoded($0[1]) }
    }

    /// `text` with the entities a serializer writes decoded.
    static func decoded(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&nbsp;", with: "\u{a0}").replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func firstMatch(_ pattern: String, in text: String) -> [String]? {
        matches(pattern, in: text).first
    }

    private static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else { return [] }
        let whole = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: whole).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
