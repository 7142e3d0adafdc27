import Foundation
import BlurMetrics

/// Parses named string settings (environment variables, flags) into typed values with clear errors.
public struct SettingReader: Sendable {
    /// The raw values by name.
    public let values: [String: String]

    /// Creates a reader over `values`.
    public init(values: [String: String]) {
        self.values = values
    }

    /// The trimmed value of `name`, or nil when it is absent or empty.
    public func string(_ name: String) -> String? {
        guard let raw = values[name] else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The integer value of `name` within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let raw = string(name) else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw ConfigurationError(source: name, value: raw, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The non-negative number value of `name`.
    public func number(_ name: String) throws(ConfigurationError) -> Double? {
        guard let raw = string(name) else { return nil }
        guard let value = Double(raw), value.isFinite, value >= 0 else {
            throw ConfigurationError(source: name, value: raw, expected: "a number of 0 or more")
        }
        return value
    }

    /// The analysis scale of `name`: `native` or a shortest side in pixels.
    public func analysisScale(_ name: String) throws(ConfigurationError) -> AnalysisScale? {
        guard let raw = string(name) else { return nil }
        guard let value = AnalysisScale(argument: raw) else {
            throw ConfigurationError(source: name, value: raw, expected: "'native' or a shortest side of 16 px or more")
        }
        return value
    }
}
