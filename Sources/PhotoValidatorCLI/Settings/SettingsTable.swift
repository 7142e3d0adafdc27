import ContentCheck
import Foundation
import PhotoValidation
import PhotoValidatorServer
import ValidatorConfiguration

/// Every setting of `serve` as the program declares it: key, environment variable, flag, default
/// and meaning. `config` prints it with resolved values and `config --markdown` writes the table of
/// docs/configuration.md, so the documentation cannot drift from the program.
struct SettingsTable {
    /// One setting.
    struct Row: Equatable {
        /// The configuration key, such as `http.port`.
        let key: String
        /// The environment variable that sets it.
        let environment: String
        /// The `serve` flag that sets it, or nil when only the environment, a file or a credential can.
        let flag: String?
        /// The built-in default as its help states it, or nil when there is none.
        let defaultValue: String?
        /// What the setting does, without the default.
        let meaning: String
    }

    /// The settings in declaration order.
    let rows: [Row]

    /// The declared settings; `flags` maps keys to the `serve` flags that set them.
    init(flags: [String: String]) {
        let declared = ServiceConfiguration.configurationKeys + ValidationSettings.configurationKeys
            + SignalConfiguration.configurationKeys + ContentCheckConfiguration.configurationKeys
        rows = declared.map { key, help in
            let (meaning, defaultValue) = Self.split(help: help)
            return Row(key: key, environment: ConfigurationSources.environmentName(for: key), flag: flags[key],
                       defaultValue: defaultValue, meaning: meaning)
        }
    }

    /// The `serve` flags by the key each sets, read from `serve --help`: an option's help names
    /// its variable first (`[env: PHOTO_VALIDATOR_HTTP_PORT, ...]`).
    static func serveFlags(help: String) -> [String: String] {
        let keysByVariable = Dictionary((ServiceConfiguration.configurationKeys + ValidationSettings.configurationKeys
            + SignalConfiguration.configurationKeys + ContentCheckConfiguration.configurationKeys)
            .map { (ConfigurationSources.environmentName(for: $0.key), $0.key) }) { first, _ in first }
        var flags: [String: String] = [:]
        // A long option name pushes its help to the next line, so a flag holds until its [env: ...].
        var current: String?
        for line in help.split(separator: "\n") {
            if let option = line.firstMatch(of: #/^\s*(--[a-z0-9-]+)/#) {
                current = String(option.output.1)
            }
            guard let flag = current, let variable = line.firstMatch(of: #/\[env: (PHOTO_VALIDATOR_[A-Z0-9_]+)/#) else { continue }
            current = nil
            if let key = keysByVariable[String(variable.output.1)], flags[key] == nil {
                flags[key] = flag
            }
        }
        return flags
    }

    /// A help text's meaning and the default in its closing `(default X)` or `(default: X)`, if any.
    static func split(help: String) -> (meaning: String, defaultValue: String?) {
        guard help.hasSuffix(")"), let open = help.range(of: " (default", options: .backwards) else { return (help, nil) }
        var value = help[open.upperBound..<help.index(before: help.endIndex)]
        if value.hasPrefix(":") { value = value.dropFirst() }
        return (String(help[..<open.lowerBound]), value.trimmingCharacters(in: .whitespaces))
    }

    /// The Markdown table of docs/configuration.md.
    var markdown: String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| key | environment variable | `serve` flag | default | meaning |", "|---|---|---|---|---|"]
        for row in rows {
            lines.append("| `\(row.key)` | `\(row.environment)` | \(row.flag.map { "`\($0)`" } ?? "—") | \(row.defaultValue.map(cell) ?? "—") | \(cell(row.meaning)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
