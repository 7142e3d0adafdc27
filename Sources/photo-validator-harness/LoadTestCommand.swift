import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness load-test`: wrk against a built daemon at several concurrencies.
struct LoadTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-test",
        abstract: "Load a built daemon with wrk: throughput, latency, readiness and peak RSS per concurrency level.",
        discussion: "Needs wrk (apt-get install wrk) and, for figures worth quoting, a release build."
    )

    @Argument(help: "The photo to post.")
    var photo = "../shared/photos/room-bathroom-1.jpg"

    @Option(help: "Seconds per level.")
    var duration = 20

    @Option(help: "Concurrency levels, space-separated.")
    var concurrency = "1 2 8 32"

    @Option(help: "The photo-validator binary.")
    var binary = ".build/release/photo-validator"

    @Flag(name: .customLong("content-stand-in"), help: "Turn the content check on against a loopback OpenAI-compatible stand-in.")
    var contentStandIn = false

    func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("\(binary) is missing: build first (swift build -c release --product photo-validator)")
        }
        let levels = concurrency.split(separator: " ").compactMap { Int($0) }
        let test = LoadTest(photo: URL(fileURLWithPath: photo), seconds: duration, levels: levels,
                            binary: URL(fileURLWithPath: binary), contentStandIn: contentStandIn)
        try await test.run { print($0) }
    }
}
