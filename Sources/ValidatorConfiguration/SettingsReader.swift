import Foundation
import Configuration

/// Typed reads from a `ConfigReader`, each checked against its key's `Setting` (range, choices,
/// secrecy), with errors that name the key and what it accepts.
public struct SettingsReader: Sendable {
    /// The underlying reader.
    public let reader: ConfigReader
    /// The declared settings reads are checked against.
    public let catalog: SettingsCatalog

    /// Reads from `reader`, checking values against `catalog`.
    public init(reader: ConfigReader, catalog: SettingsCatalog) {
        self.reader = reader
        self.catalog = catalog
    }

    /// The whole number at `key`, within its declared range, or nil when unset.
    public func integer(_ key: String) throws(ConfigurationError) -> Int? {
        let setting = catalog[key]
        guard case .integer(let range) = setting.kind else { preconditionFailure("\(key) is not declared as an integer") }
        guard let value = reader.int(forKey: ConfigKey(key)) else { return nil }
        guard range.contains(value) else { throw ConfigurationError(source: key, value: String(value), expected: setting.expected) }
        return value
    }

    /// The number at `key`, within its declared range, or nil when unset.
    public func number(_ key: String) throws(ConfigurationError) -> Double? {
        let setting = catalog[key]
        guard case .number(let range) = setting.kind else { preconditionFailure("\(key) is not declared as a number") }
        guard let value = reader.double(forKey: ConfigKey(key)) else { return nil }
        guard value.isFinite, range.contains(value) else { throw ConfigurationError(source: key, value: String(value), expected: setting.expected) }
        return value
    }

    /// The number of seconds at `key` (above 0, at most 1,000,000), or nil when unset.
    public func seconds(_ key: String) throws(ConfigurationError) -> Duration? {
        let setting = catalog[key]
        guard case .seconds = setting.kind else { preconditionFailure("\(key) is not declared in seconds") }
        guard let value = reader.double(forKey: ConfigKey(key)) else { return nil }
        guard value.isFinite, value > 0, value <= 1_000_000 else { throw ConfigurationError(source: key, value: String(value), expected: setting.expected) }
        return .milliseconds(Int64(value * 1000))
    }

    /// The text at `key`, trimmed, or nil when unset or empty; redacted in the audit when the
    /// setting is secret.
    public func string(_ key: String) -> String? {
        let setting = catalog[key]
        switch setting.kind {
        case .text, .path, .choice: break
        default: preconditionFailure("\(key) is not declared as text")
        }
        guard let value = reader.string(forKey: ConfigKey(key), isSecret: setting.isSecret) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The secret at `key`, or read from the file its `<key>_file` setting names; nil when neither
    /// is set. A secret that is set but empty (a credential file holding only a newline) is an
    /// error, never a quietly missing token.
    ///
    /// - Throws: `ConfigurationError` for an empty secret or a file that cannot be read.
    public func secret(_ key: String) throws(ConfigurationError) -> String? {
        let setting = catalog[key]
        precondition(setting.isSecret, "\(key) is not declared as a secret")
        if let value = reader.string(forKey: ConfigKey(key), isSecret: true) {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw ConfigurationError(source: key, value: "", expected: "a non-empty value") }
            return trimmed
        }
        let fileKey = key + "_file"
        guard catalog.setting(forKey: fileKey) != nil, let path = string(fileKey) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(source: fileKey, value: path, expected: "a readable file (\(error.localizedDescription))")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ConfigurationError(source: fileKey, value: path, expected: "a file holding a non-empty value") }
        return trimmed
    }

    /// `true` or `false` at `key`, or nil when unset.
    public func bool(_ key: String) -> Bool? {
        guard case .boolean = catalog[key].kind else { preconditionFailure("\(key) is not declared as a boolean") }
        return reader.bool(forKey: ConfigKey(key))
    }

    /// The value at `key` as one of `choices`, or nil when unset.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of _: Choice.Type) throws(ConfigurationError) -> Choice? where Choice.RawValue == String {
        guard let raw = string(key) else { return nil }
        guard let value = Choice(rawValue: raw.lowercased()) else {
            throw ConfigurationError(source: key, value: raw, expected: catalog[key].expected)
        }
        return value
    }
}
