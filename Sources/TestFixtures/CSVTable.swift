import Foundation
import SwiftCSV

/// The test manifests and CSV outputs as a header and rows of named cells, parsed by SwiftCSV (the
/// same reader `tune` and `evaluate-content` use).
package struct CSVTable: Sendable {
    /// Column names from the first line.
    package let header: [String]
    /// Each further line as a dictionary from column name to cell.
    package let rows: [[String: String]]

    /// Parses the CSV file at `url`.
    package init(contentsOf url: URL) throws {
        try self.init(parsing: String(contentsOf: url, encoding: .utf8))
    }

    /// Parses CSV `text`; text that is not CSV gives no rows.
    package init(text: String) {
        self = (try? CSVTable(parsing: text)) ?? CSVTable(header: [], rows: [])
    }

    private init(parsing text: String) throws {
        let csv = try CSV<Named>(string: text)
        self.init(header: csv.header, rows: csv.rows)
    }

    private init(header: [String], rows: [[String: String]]) {
        self.header = header
        self.rows = rows
    }
}
