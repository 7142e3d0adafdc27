import ArgumentParser
import ValidatorHarness

/// `photo-validator-harness store-bench`: what the shared store (`store.url`) adds to an upload.
struct StoreBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-bench",
        abstract: "What the shared store adds to an upload: reading a project's photos and remembering one, on a private PostgreSQL.",
        discussion: "Needs PostgreSQL's server (scripts/setup --test); starts and deletes its own cluster, over loopback TCP and a Unix socket."
    )

    @Option(help: "Uploads timed per case.")
    var uploads = 200
    @Option(help: "Bytes of each stored fingerprint.")
    var fingerprintBytes = 24_576
    @Option(help: "Photos already kept in each project.")
    var photosPerProject = 64
    @Option(help: "Uploads in flight in the concurrent case.")
    var concurrency = 4

    func run() async throws {
        let bench = SharedStoreBench(uploads: uploads, fingerprintBytes: fingerprintBytes, photosPerProject: photosPerProject, concurrency: concurrency)
        try await bench.run { print($0) }
    }
}
