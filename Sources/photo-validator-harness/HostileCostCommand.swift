import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness hostile-cost`: cheap uploads built to be expensive, against a built daemon.
struct HostileCostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile-cost",
        abstract: "Send each costly-structure attack (segment, scan, chunk, frame floods; long multipart boundaries) once, then sustain them while a good photo is timed.",
        discussion: "Exits 1 when an attack is not refused as expected or in time, or the good photo is late. Figures worth quoting need a release build."
    )

    @Option(help: "The photo-validator binary.")
    var binary = ".build/release/photo-validator"
    @Option(help: "The good photo timed during the attack.")
    var photo = "testdata/photos/room-living-wine.jpg"
    @Option(help: "Attacking clients in the sustained mode.")
    var attackers = 2
    @Option(help: "Seconds of sustained attack (0: each attack once only).")
    var duration = 30
    @Option(help: "The longest a good photo may take under attack, seconds.")
    var goodLimit = 2.0
    @Option(help: "The longest one attack's answer may take, seconds.")
    var attackLimit = 3.0
    @Option(parsing: .upToNextOption, help: "Extra arguments for serve (default: none, the built-in defaults).")
    var serve: [String] = []

    func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("\(binary) is missing: build first (swift build -c release --product photo-validator)")
        }
        let run = HostileCostRun(binary: URL(fileURLWithPath: binary), goodPhoto: URL(fileURLWithPath: photo), attackers: attackers, seconds: duration,
                                 goodLimit: .milliseconds(Int(goodLimit * 1000)), attackLimit: .milliseconds(Int(attackLimit * 1000)), daemonArguments: serve)
        do {
            try await run.run { print($0) }
        } catch let failure as HostileCostRun.Failure {
            print("hostile-cost FAILED:\n\(failure.description)")
            throw ExitCode(1)
        }
    }
}
