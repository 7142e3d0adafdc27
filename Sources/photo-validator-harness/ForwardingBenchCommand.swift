import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness forwarding-bench`: uploads/s and delivery latency with forwarding on.
struct ForwardingBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forwarding-bench",
        abstract: "Uploads with signal forwarding on against a real Temporal dev server: uploads/s and promise-to-delivery latency.",
        discussion: "Needs wrk and .venv (scripts/setup --test) and, for figures worth quoting, a release build."
    )

    @Argument(help: "The photo to upload.")
    var photo = "testdata/photos/cups.jpg"
    @Option(help: "Seconds of load.")
    var duration = 15
    @Option(help: "Uploads in flight.")
    var concurrency = 4
    @Option(help: "The photo-validator binary.")
    var binary = ".build/release/photo-validator"

    func run() async throws {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("\(binary) is missing: build first (swift build -c release --product photo-validator)")
        }
        let bench = ForwardingBench(photo: URL(fileURLWithPath: photo), seconds: duration, concurrency: concurrency, binary: URL(fileURLWithPath: binary))
        try await bench.run { print($0) }
    }
}
