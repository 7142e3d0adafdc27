import Foundation
import PhotoValidatorServer
import ValidatorConfiguration

/// Every setting of `serve` as its `Setting` declares it: key, environment variable, flag, default
/// and meaning. `config` prints it with resolved values and `config --markdown` writes the table of
/// docs/settings.md, so the documentation cannot drift from the program.
struct SettingsTable {
    /// One setting.
    struct Row: Equatable {
        /// The configuration key, such as `http.port`.
        let key: String
        /// The environment variable that sets it.
        let environment: String
        /// The `serve` flag that sets it, or nil when only the environment, a file or a credential can.
        let flag: String?
        /// The built-in default, or nil when there is none.
        let defaultValue: String?
        /// What the setting does, with what it accepts.
        let meaning: String
    }

    /// The settings in declaration order.
    let rows: [Row]

    /// The rows of `catalog` (every setting of `serve` by default).
    init(catalog: SettingsCatalog = ServiceConfiguration.allSettings) {
        rows = catalog.settings.map { setting in
            Row(key: setting.key, environment: setting.environmentVariable, flag: setting.flag.map { "--\($0)" },
                defaultValue: setting.defaultValue, meaning: setting.meaning + Self.accepts(setting))
        }
    }

    /// ", secret" or the range a setting accepts, as the table's meaning column ends.
    private static func accepts(_ setting: Setting) -> String {
        var notes: [String] = []
        switch setting.kind {
        case .integer, .number, .seconds, .boolean: notes.append(setting.expected)
        case .choice: notes.append(setting.expected)
        case .text, .path: break
        }
        if setting.isSecret { notes.append("secret") }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
    }

    /// The Markdown table of docs/settings.md.
    var markdown: String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| key | environment variable | `serve` flag | default | meaning |", "|---|---|---|---|---|"]
        for row in rows {
            lines.append("| `\(row.key)` | `\(row.environment)` | \(row.flag.map { "`\($0)`" } ?? "—") | \(row.defaultValue.map(cell) ?? "—") | \(cell(row.meaning)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
