import Foundation
import Configuration

/// Typed reads from a `ConfigReader`, each checked against its `Setting` (range, choices,
/// secrecy), with errors that name the key and what it accepts. A read returns the setting's
/// literal default when nothing sets it, so defaults are written only in the settings' declarations;
/// the `…IfSet` reads are for settings whose default is computed where they are read.
package struct SettingsReader: Sendable {
    /// The underlying reader.
    package let reader: ConfigReader
    /// The declared settings reads are checked against.
    package let catalog: SettingsCatalog

    /// Reads from `reader`, checking values against `catalog`.
    package init(reader: ConfigReader, catalog: SettingsCatalog) {
        self.reader = reader
        self.catalog = catalog
    }

    /// The whole number `setting` is set to, within its declared range, else its default.
    package func integer(_ setting: Setting) throws(ConfigurationError) -> Int {
        guard let value = try integerIfSet(setting) else { return Self.literalDefault(of: setting).literalInt }
        return value
    }

    /// The whole number `setting` is set to, within its declared range, or nil when unset.
    package func integerIfSet(_ setting: Setting) throws(ConfigurationError) -> Int? {
        declared(setting)
        guard case .integer(let range) = setting.kind else { preconditionFailure("\(setting.key) is not declared as an integer") }
        guard let value = reader.int(forKey: ConfigKey(setting.key)) else { return nil }
        guard range.contains(value) else { throw ConfigurationError(source: setting.key, value: String(value), expected: setting.expected) }
        return value
    }

    /// The number `setting` is set to, within its declared range, else its default.
    package func number(_ setting: Setting) throws(ConfigurationError) -> Double {
        declared(setting)
        guard case .number(let range) = setting.kind else { preconditionFailure("\(setting.key) is not declared as a number") }
        guard let value = reader.double(forKey: ConfigKey(setting.key)) else { return Self.literalDefault(of: setting).literalDouble }
        guard value.isFinite, range.contains(value) else { throw ConfigurationError(source: setting.key, value: String(value), expected: setting.expected) }
        return value
    }

    /// The number of seconds `setting` is set to (above 0, at most 1,000,000), else its default.
    package func seconds(_ setting: Setting) throws(ConfigurationError) -> Duration {
        declared(setting)
        guard case .seconds = setting.kind else { preconditionFailure("\(setting.key) is not declared in seconds") }
        let value = reader.double(forKey: ConfigKey(setting.key)) ?? Self.literalDefault(of: setting).literalDouble
        guard value.isFinite, value > 0, value <= 1_000_000 else { throw ConfigurationError(source: setting.key, value: String(value), expected: setting.expected) }
        return .milliseconds(Int64(value * 1000))
    }

    /// The text `setting` is set to, trimmed, else its default; redacted in the audit when the
    /// setting is secret.
    package func string(_ setting: Setting) -> String {
        stringIfSet(setting) ?? Self.literalDefault(of: setting).literalString
    }

    /// The text `setting` is set to, trimmed, or nil when unset or empty; redacted in the audit
    /// when the setting is secret.
    package func stringIfSet(_ setting: Setting) -> String? {
        declared(setting)
        switch setting.kind {
        case .text, .path, .choice: break
        default: preconditionFailure("\(setting.key) is not declared as text")
        }
        guard let value = reader.string(forKey: ConfigKey(setting.key), isSecret: setting.isSecret) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The secret `setting` holds, or read from the file its `<key>_file` setting names; nil when
    /// neither is set. A secret that is set but empty (a credential file holding only a newline)
    /// is an error, never a quietly missing token.
    ///
    /// - Throws: `ConfigurationError` for an empty secret or a file that cannot be read.
    package func secret(_ setting: Setting) throws(ConfigurationError) -> String? {
        declared(setting)
        precondition(setting.isSecret, "\(setting.key) is not declared as a secret")
        if let value = reader.string(forKey: ConfigKey(setting.key), isSecret: true) {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw ConfigurationError(source: setting.key, value: "", expected: "a non-empty value") }
            return trimmed
        }
        guard let fileSetting = catalog.setting(forKey: setting.key + "_file"), let path = stringIfSet(fileSetting) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(source: fileSetting.key, value: path, expected: "a readable file (\(error.localizedDescription))")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ConfigurationError(source: fileSetting.key, value: path, expected: "a file holding a non-empty value") }
        return trimmed
    }

    /// `true` or `false` as `setting` is set, else its default.
    package func bool(_ setting: Setting) -> Bool {
        declared(setting)
        guard case .boolean = setting.kind else { preconditionFailure("\(setting.key) is not declared as a boolean") }
        return reader.bool(forKey: ConfigKey(setting.key)) ?? Self.literalDefault(of: setting).literalBool
    }

    /// The value of `setting` as one of `choices`, else its default.
    package func choice<Choice: RawRepresentable & CaseIterable>(_ setting: Setting, of type: Choice.Type) throws(ConfigurationError) -> Choice where Choice.RawValue == String {
        guard let value = try choiceIfSet(setting, of: type) else {
            guard let value = Choice(rawValue: Self.literalDefault(of: setting).literalString.lowercased()) else {
                preconditionFailure("the default of \(setting.key) is not one of its choices")
            }
            return value
        }
        return value
    }

    /// The value of `setting` as one of `choices`, or nil when unset.
    package func choiceIfSet<Choice: RawRepresentable & CaseIterable>(_ setting: Setting, of _: Choice.Type) throws(ConfigurationError) -> Choice? where Choice.RawValue == String {
        guard let raw = stringIfSet(setting) else { return nil }
        guard let value = Choice(rawValue: raw.lowercased()) else {
            throw ConfigurationError(source: setting.key, value: raw, expected: setting.expected)
        }
        return value
    }

    /// Stops on a read of a setting this reader's catalog does not declare (a programming error).
    private func declared(_ setting: Setting) {
        precondition(catalog.setting(forKey: setting.key) == setting, "configuration key \(setting.key) is read but not declared in this catalog")
    }

    /// The literal default of `setting`, typed as a flag would give it; a read of a setting without
    /// one is a programming error (it is read with an `…IfSet` read and its default computed there).
    private static func literalDefault(of setting: Setting) -> ConfigContent {
        guard let text = setting.literalDefault, let content = try? setting.content(ofFlagValue: text) else {
            preconditionFailure("\(setting.key) has no literal default: read it with an …IfSet read")
        }
        return content
    }
}

extension ConfigContent {
    // Defaults are parsed by `Setting.content(ofFlagValue:)`, which gives each kind one case.
    fileprivate var literalInt: Int {
        guard case .int(let value) = self else { preconditionFailure("not a whole number: \(self)") }
        return value
    }

    fileprivate var literalDouble: Double {
        guard case .double(let value) = self else { preconditionFailure("not a number: \(self)") }
        return value
    }

    fileprivate var literalString: String {
        guard case .string(let value) = self else { preconditionFailure("not text: \(self)") }
        return value
    }

    fileprivate var literalBool: Bool {
        guard case .bool(let value) = self else { preconditionFailure("not true or false: \(self)") }
        return value
    }
}
