import Foundation
import Configuration
import PhotoValidation

/// Typed, range-checked reads from a `ConfigReader`, with errors that name the key.
public struct SettingsReader: Sendable {
    /// The underlying reader.
    public let reader: ConfigReader

    /// Wraps `reader`.
    public init(reader: ConfigReader) {
        self.reader = reader
    }

    /// The integer at `key` within `range`, or nil when unset.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let value = reader.int(forKey: ConfigKey(key)) else { return nil }
        guard range.contains(value) else {
            throw ConfigurationError(source: key, value: String(value), expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The non-negative number at `key`, or nil when unset.
    public func number(_ key: String) throws(ConfigurationError) -> Double? {
        guard let value = reader.double(forKey: ConfigKey(key)) else { return nil }
        guard value.isFinite, value >= 0 else {
            throw ConfigurationError(source: key, value: String(value), expected: "a number of 0 or more")
        }
        return value
    }

    /// The positive number of seconds at `key`, or nil when unset.
    public func seconds(_ key: String) throws(ConfigurationError) -> Duration? {
        guard let value = try number(key) else { return nil }
        guard value > 0, value <= 1_000_000 else {
            throw ConfigurationError(source: key, value: String(value), expected: "a number of seconds above 0 and at most 1000000")
        }
        return .milliseconds(Int64(value * 1000))
    }

    /// The string at `key`, trimmed, or nil when unset or empty.
    public func string(_ key: String, isSecret: Bool = false) -> String? {
        guard let value = reader.string(forKey: ConfigKey(key), isSecret: isSecret) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The value at `key` as one of `choices`, or nil when unset.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of _: Choice.Type) throws(ConfigurationError) -> Choice? where Choice.RawValue == String {
        guard let raw = string(key) else { return nil }
        guard let value = Choice(rawValue: raw.lowercased()) else {
            throw ConfigurationError(source: key, value: raw, expected: "one of " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }
}
