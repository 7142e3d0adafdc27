import Foundation

/// A small CSV reader for the test manifests (no quoted commas in them, but quotes are handled).
public struct CSVTable: Sendable {
    /// Column names from the first line.
    public let header: [String]
    /// Each further line as a dictionary from column name to cell.
    public let rows: [[String: String]]

    /// Parses the CSV file at `url`.
    public init(contentsOf url: URL) throws {
        try self.init(text: String(contentsOf: url, encoding: .utf8))
    }

    /// Parses CSV `text`.
    public init(text: String) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        let header = lines.first.map(Self.cells) ?? []
        self.header = header
        self.rows = lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(header, Self.cells(line)))
        }
    }

    /// Splits one CSV line into cells, honouring double quotes.
    public static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\"" where quoted:
                quoted = false
            case "\"" where current.isEmpty:
                quoted = true
            case "," where !quoted:
                cells.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        cells.append(current)
        return cells
    }
}
