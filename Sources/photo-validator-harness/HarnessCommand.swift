import ArgumentParser

/// `photo-validator-harness`: the long checks run against a built `photo-validator` (mutated
/// photos, soak with faults), on the harness library (`ValidatorHarness`).
@main
struct HarnessCommand: AsyncParsableCommand {
    /// The subcommands, one file each.
    static let configuration = CommandConfiguration(
        commandName: "photo-validator-harness",
        abstract: "Long checks of a built photo-validator: mutated photos and their run.",
        subcommands: [MutateCommand.self, MutationRunCommand.self, LoadTestCommand.self, ForwardingBenchCommand.self, StoreBenchCommand.self, HEICBitFlipsCommand.self, SoakCommand.self, HostileCostCommand.self]
    )
}
