import Foundation
import Logging

/// A `swift-log` handler that writes one logfmt line per event (`time=… level=info label=… msg=…
/// key=value …`): a dictionary's entries become `key.entry=value` and an array's elements are
/// joined with commas, so every line parses as logfmt.
package struct LogfmtLogHandler: LogHandler {
    /// Metadata attached to every line of this logger.
    package var metadata: Logger.Metadata = [:]
    /// Lowest level written.
    package var logLevel: Logger.Level
    private let label: String
    private let stream: @Sendable (String) -> Void

    /// A handler for `label` at `level` writing lines to `stream` (standard error by default).
    package init(label: String, level: Logger.Level = .info, stream: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.logLevel = level
        self.stream = stream
    }

    /// Metadata of this logger by key.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    package func log(event: LogEvent) {
        var fields = [("time", Self.timestamp()), ("level", event.level.rawValue), ("label", label), ("msg", event.message.description)]
        let reserved = Set(fields.map(\.0))
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
        for key in merged.keys.sorted() {
            // Metadata never overwrites the line's own fields.
            Self.flatten(merged[key]!, key: reserved.contains(key) ? "meta_" + key : key, into: &fields)
        }
        stream(fields.map { "\(Self.quoted($0.0))=\(Self.quoted($0.1))" }.joined(separator: " "))
    }

    /// Appends `value` under `key`, a dictionary as one field per entry in key order.
    static func flatten(_ value: Logger.Metadata.Value, key: String, into fields: inout [(String, String)]) {
        switch value {
        case .string(let string): fields.append((key, string))
        case .stringConvertible(let convertible): fields.append((key, convertible.description))
        case .array(let array): fields.append((key, array.map(text).joined(separator: ",")))
        case .dictionary(let dictionary):
            for entry in dictionary.keys.sorted() {
                flatten(dictionary[entry]!, key: key + "." + entry, into: &fields)
            }
        }
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        var fields: [(String, String)] = []
        flatten(value, key: "", into: &fields)
        return fields.map { $0.0.isEmpty ? $0.1 : "\($0.0.dropFirst())=\($0.1)" }.joined(separator: ",")
    }

    /// `text` as a logfmt value: bare when it has no space, quote, `=` or control character and is
    /// not empty, else in double quotes with `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" && $0.value != 0x7F }
        if plain { return text }
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += String(format: "\\u%04x", scalar.value)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
