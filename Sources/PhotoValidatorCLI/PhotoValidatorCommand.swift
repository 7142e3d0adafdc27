import ArgumentParser
import Foundation

/// The `photo-validator` command line: validate folders, benchmark, and serve.
public struct PhotoValidatorCommand: AsyncParsableCommand {
    /// The command's name, abstract and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "photo-validator",
        abstract: "Checks that photos are decodable, large enough and sharp enough.",
        version: ReleaseIdentity.description,
        subcommands: [ServeCommand.self, ValidateCommand.self, TuneCommand.self, BenchCommand.self, ConfigCommand.self, EvaluateContentCommand.self, DecodeWorkerCommand.self]
    )

    /// Creates the command (argument parser needs it).
    public init() {}

    /// Parses `arguments` (the process's when nil), runs the chosen subcommand and exits.
    public static func runFromCommandLine(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit()
        } catch {
            // ArgumentParser reports usage errors with 64 (EX_USAGE); the documented status is 2.
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }
}
