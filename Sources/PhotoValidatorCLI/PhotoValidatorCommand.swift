import ArgumentParser
import Foundation
import ValidatorConfiguration

/// The `photo-validator` command line: validate folders, benchmark, and serve.
package struct PhotoValidatorCommand: AsyncParsableCommand {
    /// The command's name, abstract and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: "photo-validator",
        abstract: "Checks that photos are decodable, large enough and sharp enough.",
        version: ReleaseIdentity.description,
        subcommands: [ServeCommand.self, ValidateCommand.self, TuneCommand.self, LabelCommand.self, BenchCommand.self, ConfigCommand.self, EvaluateContentCommand.self, DecodeWorkerCommand.self]
    )

    /// Creates the command (argument parser needs it).
    package init() {}

    /// Parses `arguments` (the process's when nil), runs the chosen subcommand and exits.
    package static func runFromCommandLine(_ arguments: [String]? = nil) async -> Never {
        let given = arguments ?? Array(CommandLine.arguments.dropFirst())
        if Set(given) == ["--version", "--verbose"] {
            print(ReleaseIdentity.verboseDescription)
            exit()
        }
        do {
            var command = try parseAsRoot(gatheringSettingFlags(given))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit()
        } catch let error as ConfigurationError {
            // A setting is wrong, not the command line's shape: the key and what it accepts, no usage.
            FileHandle.standardError.write(Data("photo-validator: \(error)\n".utf8))
            exit(withError: ExitCode(2))
        } catch {
            // ArgumentParser reports usage errors with 64 (EX_USAGE); the documented status is 2.
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }

    /// The batch commands, whose setting flags are their catalogs'.
    static let settingsCommands: [any SettingsCommand.Type] = [ValidateCommand.self, TuneCommand.self, LabelCommand.self, BenchCommand.self, EvaluateContentCommand.self]

    /// `arguments` with each setting flag of the batch command they name (`--room-min-side 2000`)
    /// handed over as `--setting=--room-min-side=2000` ahead of the others, so ArgumentParser, which
    /// cannot declare options from a catalog, never takes a setting's value for a path. A flag that
    /// is no setting of the command is left for ArgumentParser to reject.
    static func gatheringSettingFlags(_ arguments: [String]) -> [String] {
        guard let name = arguments.first,
              let command = settingsCommands.first(where: { $0.configuration.commandName == name })
        else { return arguments }
        let (flags, others) = command.settingsCatalog.splittingFlags(Array(arguments.dropFirst()))
        return [name] + flags.map { SettingFlags.gatheringFlag + "=" + $0 } + others
    }
}
