import Foundation
import Logging

/// A `swift-log` handler that writes one JSON object per line: time, level, label, message and
/// metadata, for log collectors that parse JSON.
package struct JSONLogHandler: LogHandler {
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

    /// Writes a line to standard error.
    package static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Metadata of this logger by key.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    package func log(event: LogEvent) {
        var object: [String: Any] = [
            "time": Self.timestamp(),
            "level": event.level.rawValue,
            "label": label,
            "message": event.message.description,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            // Metadata never overwrites the line's own fields.
            object[object[key] == nil ? key : "meta_" + key] = Self.json(value)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        stream(String(decoding: data, as: UTF8.self))
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): array.map(json)
        case .dictionary(let dictionary): dictionary.mapValues(json)
        }
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
