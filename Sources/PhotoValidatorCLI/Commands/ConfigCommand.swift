import ArgumentParser
import ContentCheck
import Foundation
import PhotoValidation
import PhotoValidatorServer
import ValidatorConfiguration

/// `photo-validator config`: prints the configuration `serve` would use, secrets redacted.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the resolved configuration of `serve` (secrets redacted) and where each value comes from.",
        discussion: """
            Every key can be set by a flag of `serve`, by the environment variable PHOTO_VALIDATOR_<KEY> \
            (upper case, '.' as '_'), or in a JSON file named by --config or PHOTO_VALIDATOR_CONFIG_FILE \
            (nested objects: {"http": {"port": 8080}}), in that order of precedence. A file in $CREDENTIALS_DIRECTORY \
            (systemd's LoadCredential=) named after a key, such as auth.token, sets that key as a secret, after the \
            environment and before the file; under systemd's StateDirectory= the outbox defaults to $STATE_DIRECTORY/outbox.sqlite.
            """
    )

    @OptionGroup var options: ServeOptions

    mutating func run() async throws {
        let (_, audit) = try await options.resolve(environment: ProcessInfo.processInfo.environment)
        let help = Dictionary(uniqueKeysWithValues: (ServiceConfiguration.configurationKeys + ValidationSettings.configurationKeys + SignalConfiguration.configurationKeys + ContentCheckConfiguration.configurationKeys).map { ($0.key, $0.help) })
        let rows = audit.entries.map { entry in
            [entry.key, ConfigurationSources.environmentName(for: entry.key), entry.value ?? "(default)", entry.source ?? "default", help[entry.key] ?? ""]
        }
        let header = ["KEY", "ENVIRONMENT", "VALUE", "SOURCE", "MEANING"]
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let padded = (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            StandardStreams.output((padded + [row[4]]).joined(separator: "  "))
        }
    }
}
