import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness mutation-run`: mutated photos against a built validator.
struct MutationRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutation-run",
        abstract: "Throw mutated photos at a built photo-validator and check it holds.",
        discussion: """
        Every file answered within --max-seconds, invalid_image for the known-corrupt classes, peak RSS within \
        --decode-memory plus --overhead (plus 3 MiB per upload in flight for the daemon). Exits 1 on any breach. \
        scripts/test runs a 150-file smoke with the debug build.
        """
    )

    @Option(help: "Random mutations (the known and declared-huge ones come on top).")
    var files = 3000

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "validate, daemon or both.")
    var mode: MutationRun.Mode = .both

    @Option(help: "Uploads in flight against the daemon.")
    var concurrency = 8

    @Option(name: .customLong("decode-memory"), help: "The decode memory budget, MiB.")
    var decodeMemory = 128

    @Option(help: "Resident memory allowed over the decode budget, MiB.")
    var overhead = 160

    @Option(name: .customLong("max-seconds"), help: "The longest a file may take.")
    var maxSeconds = 2.0

    @Option(help: "The photo-validator binary.")
    var binary = ".build/release/photo-validator"

    func run() async throws {
        let url = URL(fileURLWithPath: binary)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ValidationError("\(binary) is missing: run swift build -c release --product photo-validator")
        }
        let run = MutationRun(binary: url, files: files, seed: seed, mode: mode, concurrency: concurrency,
                              decodeMemoryMiB: decodeMemory, overheadMiB: overhead, maxSeconds: maxSeconds)
        let problems = try await run.run { print($0) }
        var standardError = FileHandle.standardError
        for problem in problems.prefix(40) { print(problem, to: &standardError) }
        print("mutation-run: " + (problems.isEmpty ? "ok" : "\(problems.count) problems"))
        if !problems.isEmpty { throw ExitCode(1) }
    }
}

extension MutationRun.Mode: ExpressibleByArgument {}
