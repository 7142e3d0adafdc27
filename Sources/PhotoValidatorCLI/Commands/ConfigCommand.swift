import ArgumentParser
import Foundation
import ValidatorConfiguration

/// `photo-validator config`: prints the configuration `serve` would use, secrets redacted.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the resolved configuration of `serve` (secrets redacted) and where each value comes from.",
        discussion: """
            Every key can be set by the environment variable PHOTO_VALIDATOR_<KEY> (upper case, '.' as '_'), \
            by the flag of `serve` in the FLAG column (every setting but a secret has one), or in a JSON file named by --config or \
            PHOTO_VALIDATOR_CONFIG_FILE (nested objects: {"http": {"port": 8080}}). Precedence: flag, \
            environment, credential, file, default. A file in $CREDENTIALS_DIRECTORY (systemd's \
            LoadCredential=) named after a key, such as auth.token, sets that key as a secret; under \
            systemd's StateDirectory= the outbox defaults to $STATE_DIRECTORY/outbox.sqlite. SOURCE is \
            flag, environment, credentials, file, STATE_DIRECTORY or default. --markdown prints the \
            settings table of docs/settings.md (defaults, not this environment's values).
            """
    )

    @Flag(help: "Print the settings table (key, variable, flag, default, meaning) as Markdown instead.")
    var markdown = false

    @OptionGroup var options: ServeOptions

    mutating func run() async throws {
        let table = SettingsTable()
        if markdown {
            StandardStreams.output(String(table.markdown.dropLast()))
            return
        }
        let (_, audit) = try await options.resolve(environment: ProcessInfo.processInfo.environment)
        let resolved = Dictionary(audit.entries.map { ($0.key, $0) }) { first, _ in first }
        let rows = table.rows.map { row -> [String] in
            let entry = resolved[row.key]
            let value = entry?.value ?? row.defaultValue ?? "-"
            let source = entry?.value == nil ? "default" : (entry?.source ?? "default")
            return [row.key, row.environment, value, source, row.flag ?? "-", row.meaning]
        }
        let header = ["KEY", "ENVIRONMENT", "VALUE", "SOURCE", "FLAG", "MEANING"]
        let widths = (0..<5).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let padded = (0..<5).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            StandardStreams.output((padded + [row[5]]).joined(separator: "  "))
        }
    }
}
