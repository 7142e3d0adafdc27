import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness heic-bitflips`: how many one-bit flips in a HEIC each binary catches.
struct HEICBitFlipsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heic-bitflips",
        abstract: "Count how many single-bit flips in a HEIC's coded data each binary refuses, passes changed, or leaves unchanged."
    )

    @Option(help: "Copies with one bit flipped.")
    var count = 50
    @Option(help: "The flips' seed.")
    var seed: UInt64 = 50
    @Argument(help: "The HEIC photo.")
    var photo: String
    @Argument(help: "photo-validator binaries to compare.")
    var binaries: [String]

    func run() async throws {
        let flips = HEICBitFlips(photo: URL(fileURLWithPath: photo), count: count, seed: seed)
        for counts in try await flips.run(binaries: binaries.map { URL(fileURLWithPath: $0) }) { print(counts) }
    }
}
