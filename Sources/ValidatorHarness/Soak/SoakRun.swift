import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Synchronization
import TestFixtures

/// A soak and fault run of the daemon against a real Temporal dev server: uploads of real photos,
/// hostile files, oversized, trickled, stalled and malformed bodies at a set concurrency, while
/// the daemon is SIGKILLed and restarted, Temporal is killed, answers 500 or slowly (through
/// `FaultProxy`), and the outbox's file system fills; then every promised signal is looked for in
/// the workflows' histories. `run()` returns the exit status: 0 passed, 1 a breach, 2 set-up.
package final class SoakRun: @unchecked Sendable {
    /// A set-up step failed.
    package struct SetupError: Error, CustomStringConvertible {
        /// What failed.
        package let description: String
    }

    /// One sample of the daemon's resources and probes.
    struct Sample: Sendable {
        var t: Double
        var generation: Int
        var rssKiB: Int?
        var fds: Int?
        var threads: Int?
        /// `/readyz` status, 0 when it did not answer, nil when not probed.
        var ready: Int?
        var readyAt: Double?
        var readyBody = ""
        var health: Int?
        var healthAt: Double?
        var healthMilliseconds: Double?
        var pending: Int?
        var fileSystemUsedKiB: Int?
    }

    let options: SoakOptions
    let log = SoakLog()
    let statistics = SoakStatistics()
    let projects: [String]
    let windows: [FaultWindow]
    let workDirectory: URL
    // Set once in setUp(), before any worker or task reads them.
    private(set) var corpus: SoakCorpus!
    private(set) var daemonPort = 0
    private var temporal: TemporalDevServer!
    private var proxy: FaultProxy!
    private var proxyTask: Task<Void, any Error>?
    private let daemon = PeerProcess()
    private var daemonArguments: [String] = []
    private var daemonEnvironment: [String: String] = [:]
    private var mounted: URL?
    private var filler: URL?
    private(set) var version = ""
    private var outbox: URL!

    private let stopped = Atomic(false)
    private let samplingStopped = Atomic(false)
    private let shared = Mutex<(generation: Int, deliberatelyDown: Bool, samples: [Sample], readiness: [(t: Double, generation: Int, from: Int, to: Int, body: String)],
                                crashes: [(t: Double, generation: Int, status: Int32?, tail: String)], faults: [(t: Double, clock: String, entry: String)])>(
        (0, false, [], [], [], []))

    /// A run with `options`.
    package init(options: SoakOptions) throws {
        self.options = options
        let runID = UUID().uuidString.lowercased().prefix(8)
        projects = (0..<options.projects).map { "soak-\(runID)-\($0)" }
        windows = FaultWindow.schedule(duration: options.duration)
        workDirectory = options.workDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("pv-soak-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    }

    /// True once the load has stopped.
    var loadStopped: Bool { stopped.load(ordering: .relaxed) }
    /// The daemon's generation: 1 for the first process, one more per restart.
    var daemonGeneration: Int { shared.withLock { $0.generation } }
    var samples: [Sample] { shared.withLock { $0.samples } }
    var readinessChanges: [(t: Double, generation: Int, from: Int, to: Int, body: String)] { shared.withLock { $0.readiness } }
    var crashes: [(t: Double, generation: Int, status: Int32?, tail: String)] { shared.withLock { $0.crashes } }
    var faultLog: [(t: Double, clock: String, entry: String)] { shared.withLock { $0.faults } }
    func window(_ name: String) -> FaultWindow? { windows.first { $0.name == name } }
    var proxyCounts: [String: Int] { proxy?.counts ?? [:] }
    var proxyTimings: [Double] { proxy?.timings ?? [] }
    var activeWindows: [FaultWindow] { windows.filter { $0.name != "disk-full" || mounted != nil } }
    var daemonLog: URL { workDirectory.appendingPathComponent("daemon.log") }

    /// Runs the soak and returns the exit status (set-up failures: 2).
    package func run() async -> Int32 {
        do {
            let status = try await runChecked()
            await tearDown()
            return status
        } catch {
            log("soak: \(error)")
            await tearDown()
            return 2
        }
    }

    private func fault(_ window: String, _ message: String) {
        shared.withLock { $0.faults.append((log.now, SoakLog.wallClock(), "\(window): \(message)")) }
        log("FAULT \(window): \(message)")
    }

    // MARK: Set-up and tear-down

    private func setUp() async throws {
        let outboxFolder = workDirectory.appendingPathComponent("outbox-fs")
        try FileManager.default.createDirectory(at: outboxFolder, withIntermediateDirectories: true)
        if options.noTmpfs {
            log("outbox on the work directory's file system (--no-tmpfs): the disk-full fault is skipped")
        } else {
            let mount = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                    ["mount", "-t", "tmpfs", "-o", "size=\(options.outboxFileSystemMiB)m", "tmpfs", outboxFolder.path])
            if mount.status == 0 {
                mounted = outboxFolder
                log("outbox tmpfs mounted at \(outboxFolder.path) (\(options.outboxFileSystemMiB) MiB)")
            } else {
                log("cannot mount a tmpfs (\(mount.standardError.trimmingCharacters(in: .whitespacesAndNewlines))): the disk-full fault is skipped")
            }
        }
        outbox = outboxFolder.appendingPathComponent("outbox.sqlite")
        corpus = try SoakCorpus(bodyLimitMiB: options.bodyLimitMiB)
        log("corpus: \(corpus.photos.count) photos, \(corpus.hostile.count) hostile files, \(corpus.small.count) small photos for trickled bodies")
        temporal = try TemporalDevServer()
        try await temporal.start()
        log("Temporal dev server: gRPC \(temporal.grpcPort), HTTP \(temporal.httpPort) (pid \(temporal.processIdentifier ?? 0))")
        for project in projects { try await temporal.startWorkflow(id: project) }
        log("started \(projects.count) workflows: \(projects.first!) .. \(projects.last!)")
        proxy = FaultProxy(upstreamPort: temporal.httpPort, slowDelay: .milliseconds(Int(options.slowDelay * 1000)), pastTimeoutDelay: .seconds(11))
        let listening = AsyncStream<Int>.makeStream()
        let application = proxy.application { listening.continuation.yield($0) }
        proxyTask = Task { try await application.run() }
        var ports = listening.stream.makeAsyncIterator()
        guard let proxyPort = await ports.next() else { throw SetupError(description: "the fault proxy did not start") }
        daemonPort = try TemporalDevServer.freePort()
        daemonArguments = ["serve", "--host", "127.0.0.1", "--port", String(daemonPort), "--signal-target", "temporal",
                           "--temporal-url", "http://127.0.0.1:\(proxyPort)", "--outbox", outbox.path, "--log-format", "json",
                           "--log-level", "info", "--body-limit", String(options.bodyLimitMiB), "--request-timeout", String(options.requestTimeout)]
        daemonEnvironment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("PHOTO_VALIDATOR_") && !["STATE_DIRECTORY", "CREDENTIALS_DIRECTORY"].contains($0.key)
        }
        daemonEnvironment["PHOTO_VALIDATOR_OUTBOX_RETRY_MAX_SECONDS"] = String(options.outboxRetryMaxSeconds)
        try await startDaemon()
        version = try await ProcessRunner.run(options.binary, ["--version"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        log("daemon \(version) on 127.0.0.1:\(daemonPort) (pid \(daemon.processIdentifier ?? 0)), signals through proxy :\(proxyPort)")
    }

    private func startDaemon() async throws {
        let generation = shared.withLock { $0.generation += 1; return $0.generation }
        let marker = "{\"soak\":\"starting daemon #\(generation)\",\"time\":\"\(SoakLog.wallClock())\"}\n"
        if let handle = try? FileHandle(forWritingTo: daemonLog) {
            _ = try? handle.seekToEnd()
            handle.write(Data(marker.utf8))
            try? handle.close()
        } else {
            FileManager.default.createFile(atPath: daemonLog.path, contents: Data(marker.utf8))
        }
        try await daemon.start(options.binary, daemonArguments, name: "the daemon", port: daemonPort, path: "/healthz",
                               errorLog: daemonLog, environment: daemonEnvironment, workingDirectory: workDirectory, timeout: .seconds(60))
    }

    private func tearDown() async {
        stopped.store(true, ordering: .relaxed)
        await daemon.kill()
        proxyTask?.cancel()
        await temporal?.stop()
        if let filler { try? FileManager.default.removeItem(at: filler) }
        if let mounted {
            // For a post-mortem: the tmpfs goes away.
            let keep = workDirectory.appendingPathComponent("outbox-copy")
            try? FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: mounted.path)) ?? [] where name.hasPrefix("outbox.sqlite") {
                try? FileManager.default.copyItem(at: mounted.appendingPathComponent(name), to: keep.appendingPathComponent(name))
            }
            _ = try? await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["umount", mounted.path])
            self.mounted = nil
        }
    }

    // MARK: Sampling

    private func sampleLoop() async {
        var readyState: [Int: Int] = [:]
        var nextProgress = log.now + options.progressInterval
        while !samplingStopped.load(ordering: .relaxed) {
            let t = log.now
            var sample = Sample(t: t, generation: daemonGeneration)
            if let mounted {
                var stats = statvfs()
                if statvfs(mounted.path, &stats) == 0 {
                    sample.fileSystemUsedKiB = Int(stats.f_blocks - stats.f_bfree) * Int(stats.f_frsize) / 1024
                }
            }
            if daemon.isRunning, let pid = daemon.processIdentifier {
                sample.rssKiB = ProcStatus.value("VmRSS", of: pid)
                sample.threads = ProcStatus.value("Threads", of: pid)
                sample.fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
                // Stamped when the answer (or the failure) arrived: a probe in flight when the daemon
                // is killed fails after the kill, however long a loaded machine kept it waiting.
                let ready = await probe("/readyz")
                (sample.ready, sample.readyBody, sample.readyAt) = (ready.status, ready.body, log.now)
                let health = await probe("/healthz")
                sample.healthAt = log.now
                (sample.health, sample.healthMilliseconds) = (health.status, health.milliseconds)
                let outboxView = await probe("/v1/outbox")
                sample.pending = ((RawHTTPAnswer.jsonObject(outboxView.body)?["counts"]) as? [String: Any])?["pending"] as? Int
            } else if !shared.withLock({ $0.deliberatelyDown }), daemon.processIdentifier != nil {
                await daemonCrashed()
            }
            shared.withLock { $0.samples.append(sample) }
            if let ready = sample.ready {
                if let previous = readyState[sample.generation], previous != ready {
                    shared.withLock { $0.readiness.append((sample.readyAt ?? t, sample.generation, previous, ready, sample.readyBody)) }
                    log("/readyz \(previous) -> \(ready) \(ready != 200 ? sample.readyBody : "")")
                }
                readyState[sample.generation] = ready
            }
            if t >= nextProgress {
                nextProgress += options.progressInterval
                progress(sample)
            }
            try? await Task.sleep(for: .milliseconds(Int(max(0, options.sampleInterval - (log.now - t)) * 1000)))
        }
    }

    /// GET `path` on the daemon: status (0 when it did not answer), body, milliseconds.
    private func probe(_ path: String) async -> (status: Int, body: String, milliseconds: Double) {
        let start = ContinuousClock.now
        let answer = (try? await RawHTTP.request(port: daemonPort, method: "GET", path: path)).flatMap(RawHTTPAnswer.init)
        return (answer?.status ?? 0, answer?.body ?? "", (ContinuousClock.now - start).seconds * 1000)
    }

    private func progress(_ sample: Sample) {
        let attempts = statistics.attempts
        let recent = attempts.filter { $0.t >= log.now - options.progressInterval }
        let ok = recent.filter { ($0.status ?? 0) / 100 == 2 }.count
        let busy = recent.filter { $0.status == 503 }.count
        log("progress: \(String(format: "%.1f", Double(recent.count) / options.progressInterval)) req/s (\(ok) 2xx, \(busy) 503 in the last "
            + "\(Int(options.progressInterval))s), \(attempts.count) requests, \(statistics.promised.count) promised, "
            + "RSS \(sample.rssKiB.map { "\($0 / 1024) MiB" } ?? "-"), fds \(sample.fds.map(String.init) ?? "-"), threads \(sample.threads.map(String.init) ?? "-"), "
            + "outbox pending \(sample.pending.map(String.init) ?? "-"), readyz \(sample.ready.map(String.init) ?? "-")")
    }

    private func daemonCrashed() async {
        let generation = daemonGeneration
        let tail = logTail(15)
        shared.withLock { $0.crashes.append((log.now, generation, daemon.exitStatus, tail)) }
        log("DAEMON CRASHED (generation \(generation), exit \(daemon.exitStatus.map(String.init) ?? "?")); restarting it. Log tail:\n\(tail)")
        do {
            try await startDaemon()
        } catch {
            log("cannot restart the daemon: \(error)")
            stopped.store(true, ordering: .relaxed)
        }
    }

    func logTail(_ lines: Int) -> String {
        let text = (try? String(contentsOf: daemonLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    // MARK: Faults

    private func wait(until t: Double) async {
        while log.now < t, !loadStopped {
            try? await Task.sleep(for: .milliseconds(Int(min(0.2, max(0, t - log.now)) * 1000) + 1))
        }
    }

    private func runFaults() async {
        for window in activeWindows.sorted(by: { $0.plannedStart < $1.plannedStart }) {
            await wait(until: window.plannedStart)
            if loadStopped { return }
            window.began(at: log.now)
            switch window.name {
            case "daemon-kill": await killDaemon(window)
            case "temporal-kill": await killTemporal(window)
            case "temporal-500": await proxyFault(window, mode: .error)
            case "temporal-slow": await proxyFault(window, mode: .slow)
            default: await fillDisk(window)
            }
            window.ended(at: log.now)
        }
    }

    private func killDaemon(_ window: FaultWindow) async {
        shared.withLock { $0.deliberatelyDown = true }
        let old = daemon.processIdentifier ?? 0
        await daemon.kill()
        fault(window.name, "SIGKILLed daemon pid \(old) (generation \(daemonGeneration)) under load")
        let begun = ContinuousClock.now
        do {
            try await startDaemon()
        } catch {
            fault(window.name, "the daemon did not come back: \(error)")
        }
        shared.withLock { $0.deliberatelyDown = false }
        let took = String(format: "%.1f", (ContinuousClock.now - begun).seconds)
        window.note("restarted as pid \(daemon.processIdentifier ?? 0), /healthz after \(took) s")
        fault(window.name, "restarted: pid \(daemon.processIdentifier ?? 0), /healthz answered after \(took) s")
    }

    private func killTemporal(_ window: FaultWindow) async {
        let pid = temporal.processIdentifier ?? 0
        await temporal.kill()
        fault(window.name, "SIGKILLed Temporal dev server pid \(pid)")
        await wait(until: window.plannedEnd)
        let begun = ContinuousClock.now
        do {
            try await temporal.start()
        } catch {
            fault(window.name, "Temporal did not come back: \(error)")
        }
        let took = String(format: "%.1f", (ContinuousClock.now - begun).seconds)
        window.note("down \(String(format: "%.1f", log.now - window.start)) s, ready \(took) s after restart")
        fault(window.name, "Temporal restarted (pid \(temporal.processIdentifier ?? 0)), ready after \(took) s")
    }

    private func proxyFault(_ window: FaultWindow, mode: FaultProxy.Mode) async {
        proxy.mode = mode
        fault(window.name, mode == .error ? "proxy now answers 500" : "proxy delays signals by \(options.slowDelay) s (a quarter by 11 s)")
        await wait(until: window.plannedEnd)
        proxy.mode = .pass
        let counts = proxy.counts
        fault(window.name, mode == .error ? "proxy passes again (\(counts["injected_500"] ?? 0) signals answered 500)"
            : "proxy passes again (\(counts["delayed"] ?? 0) delayed, \(counts["delayed_past_timeout"] ?? 0) past the timeout)")
    }

    private func fillDisk(_ window: FaultWindow) async {
        guard let mounted else { return }
        let file = mounted.appendingPathComponent("filler")
        filler = file
        var written = 0
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if fd >= 0 {
            // Unbuffered, in smaller and smaller blocks down to the last free one.
            for size in [1 << 20, 65_536, 4096, 512] {
                let block = [UInt8](repeating: 0, count: size)
                while true {
                    let count = block.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, size) }
                    guard count > 0 else { break }
                    written += count
                }
            }
            close(fd)
        }
        var stats = statvfs()
        _ = statvfs(mounted.path, &stats)
        fault(window.name, "outbox tmpfs filled (\(String(format: "%.2f", Double(written) / 1048576)) MiB filler, \(Int(stats.f_bavail) * Int(stats.f_frsize)) bytes free)")
        // The sampler's interval is too coarse for a window of a few seconds, whose /readyz answer is what is checked.
        var previous = 200
        while log.now < window.plannedEnd {
            let answer = await probe("/readyz")
            let t = log.now
            if answer.status != 0, answer.status != previous {
                let generation = daemonGeneration
                shared.withLock { $0.readiness.append((t, generation, previous, answer.status, answer.body)) }
                log("/readyz \(previous) -> \(answer.status) \(answer.status != 200 ? answer.body : "")")
                previous = answer.status
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        try? FileManager.default.removeItem(at: file)
        fault(window.name, "filler deleted")
    }

    // MARK: The run

    /// Everything the report needs from the end of the run.
    struct Ending {
        var loadStart = 0.0
        var loadEnd = 0.0
        var drainSeconds = 0.0
        var outboxCounts: [String: Any]?
        var deadLetters = 0
        var pending: Int?
        var history: [String: [String]] = [:]
        var exitStatus: Int32?
        var stopSeconds = 0.0
        var outboxRows: [String: (state: String, attempts: Int, reason: String?, latency: Double?)]?
    }

    private func runChecked() async throws -> Int32 {
        try await setUp()
        async let sampling: Void = sampleLoop()
        var ending = Ending()
        ending.loadStart = log.now
        for window in windows { window.shift(by: ending.loadStart) }
        log("load: \(Int(options.duration)) s at concurrency \(options.concurrency); windows (from the start of the load): "
            + activeWindows.map { "\($0.name) \(Int($0.plannedStart - ending.loadStart))-\(Int($0.plannedEnd - ending.loadStart))s" }.joined(separator: "; "))
        let finished = DispatchGroup()
        for index in 0..<options.concurrency {
            let worker = SoakLoadWorker(index: index, run: self)
            finished.enter()
            Thread {
                worker.loop()
                finished.leave()
            }.start()
        }
        async let faults: Void = runFaults()
        await wait(until: ending.loadStart + options.duration)
        stopped.store(true, ordering: .relaxed)
        ending.loadEnd = log.now
        log("load stopped; waiting for requests in flight")
        let timeout = options.clientTimeout + 5
        _ = try? await offloaded { finished.wait(timeout: .now() + timeout) }
        await faults
        // A fault cut short by the end of the run still ends.
        if !temporal.isRunning { try? await temporal.start() }
        if let filler { try? FileManager.default.removeItem(at: filler) }
        proxy.mode = .pass

        let drainStart = log.now
        while log.now - drainStart < options.drainSeconds {
            if !daemon.isRunning, !shared.withLock({ $0.deliberatelyDown }) { await daemonCrashed() }
            let view = await probe("/v1/outbox?limit=500")
            let object = RawHTTPAnswer.jsonObject(view.body)
            ending.outboxCounts = object?["counts"] as? [String: Any]
            ending.deadLetters = (object?["dead_letters"] as? [Any])?.count ?? 0
            ending.pending = view.status == 200 ? ending.outboxCounts?["pending"] as? Int : nil
            if ending.pending == 0 { break }
            try? await Task.sleep(for: .milliseconds(500))
        }
        ending.drainSeconds = log.now - ending.loadEnd
        log("outbox \(ending.pending == 0 ? "drained" : "NOT drained") \(String(format: "%.1f", ending.drainSeconds)) s after the load stopped: \(ending.outboxCounts.map { "\($0)" } ?? "-")")
        try? await Task.sleep(for: .milliseconds(Int(options.sampleInterval * 1000)))
        samplingStopped.store(true, ordering: .relaxed)
        await sampling
        for project in projects {
            ending.history[project] = (try? await temporal.signalledPhotoIDs(workflowID: project)) ?? []
        }
        let stop = await daemon.terminate(within: .seconds(60))
        (ending.exitStatus, ending.stopSeconds) = (stop.status, stop.seconds)
        log("daemon SIGTERM: exit \(stop.status.map(String.init) ?? "none (killed)") after \(String(format: "%.1f", stop.seconds)) s")
        ending.outboxRows = OutboxRows.rows(of: outbox)
        return report(ending)
    }
}
