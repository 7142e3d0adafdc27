import Foundation
import Subprocess
import SystemPackage

/// Runs a program to completion and captures what it printed.
package enum ProcessRunner {
    /// What a finished program left behind.
    package struct Outcome: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended it.
        package let status: Int32
        /// Everything written to standard output.
        package let standardOutput: String
        /// Everything written to standard error.
        package let standardError: String
    }

    /// Runs `executable` with `arguments` and `environment` additions, and waits for it.
    package static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        let result = try await Subprocess.run(
            .path(FilePath(executable.path)),
            arguments: Arguments(arguments),
            environment: .inherit.updating(Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), Optional($0.value)) })),
            input: .none,
            output: .string(limit: 64 << 20),
            error: .string(limit: 16 << 20)
        )
        let status: Int32 = switch result.terminationStatus {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
        return Outcome(status: status, standardOutput: result.standardOutput, standardError: result.standardError)
    }

    /// The built `photo-validator` executable beside the test bundle.
    package static var photoValidatorExecutable: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test bundle may be a folder (…/X.xctest/…); walk up to the build products folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("photo-validator").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("photo-validator")
    }
}
