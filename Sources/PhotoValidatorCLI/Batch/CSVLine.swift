import Foundation

/// RFC 4180 quoting for one CSV row.
enum CSVLine {
    /// The fields joined by commas, each quoted when it contains a comma, quote or line break.
    static func encode(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",")
    }
}
