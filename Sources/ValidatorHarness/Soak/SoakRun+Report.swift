import Foundation

extension SoakRun {
    /// The nearest-rank percentile `p` of `values` (NaN when empty).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let ordered = values.sorted()
        let index = max(0, min(ordered.count - 1, Int((p / 100 * Double(ordered.count) + 0.5).rounded()) - 1))
        return ordered[index]
    }

    /// Checks the run, prints its summary (also written to `summary.md` in the work directory)
    /// and returns the exit status: 1 when a promised signal is lost, a 5xx other than a deliberate
    /// 503 was answered, the daemon crashed or did not exit 0 on SIGTERM, or, with
    /// `failOnWarnings`, anything was warned about.
    func report(_ ending: Ending) -> Int32 {
        let attempts = statistics.attempts
        var failures: [String] = []
        var warnings: [String] = []
        let duration = ending.loadEnd - ending.loadStart
        let diskFull = activeWindows.first { $0.name == "disk-full" }
        let daemonKill = window("daemon-kill")!
        let crashes = self.crashes

        func deliberate503(_ a: SoakStatistics.Attempt) -> Bool {
            a.code == "overloaded" || (a.code == "outbox_unavailable" && diskFull?.contains(a.t, grace: 3) == true)
        }
        var non2xx: [String: Int] = [:], non2xxKinds: [String: [String: Int]] = [:]
        var unexpected: [String: Int] = [:], unexpected5xx: [String: Int] = [:], connectionErrors: [String: Int] = [:]
        for a in attempts {
            guard let status = a.status else {
                let expected = daemonKill.contains(a.t, grace: 2) || crashes.contains { $0.t - 1 <= a.t && a.t <= $0.t + 5 } || a.kind == "oversized-chunked"
                connectionErrors["\(a.error ?? "?") \(expected ? "daemon down (deliberate)" : "UNEXPECTED")", default: 0] += 1
                if !expected { unexpected["connection \(a.error ?? "?") on \(a.kind)", default: 0] += 1 }
                continue
            }
            if status / 100 == 2 { continue }
            let key = "\(status) \(a.code ?? "-")"
            non2xx[key, default: 0] += 1
            non2xxKinds[key, default: [:]][a.kind, default: 0] += 1
            if status == 503 && deliberate503(a) { continue }
            if SoakJob.expectedStatuses(a.kind).contains(status) { continue }
            if status >= 500 {
                unexpected5xx["\(key) on \(a.kind)", default: 0] += 1
            } else {
                unexpected["\(key) on \(a.kind)", default: 0] += 1
            }
        }
        if !unexpected5xx.isEmpty {
            failures.append("5xx other than deliberate 503s: " + unexpected5xx.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }.joined(separator: ", "))
        }
        if !unexpected.isEmpty {
            warnings.append("unexpected answers: " + unexpected.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }.joined(separator: ", "))
        }
        if !crashes.isEmpty { failures.append("the daemon crashed \(crashes.count) time(s) unexpectedly") }
        if ending.exitStatus != 0 { failures.append("the daemon exited \(ending.exitStatus.map(String.init) ?? "only when killed") on SIGTERM (expected 0)") }

        let completed = attempts.filter { $0.status != nil }
        let ok = completed.filter { $0.status! / 100 == 2 }
        let fastOK = ok.filter { ["upload-photo", "validate-photo", "hostile-upload", "hostile-validate"].contains($0.kind) }.map { $0.latency * 1000 }
        let validations = ok.filter { $0.kind != "metrics" }

        // Signals
        var delivered: [String: Int] = [:]
        for ids in ending.history.values { for id in ids { delivered[id, default: 0] += 1 } }
        let promised = statistics.promised
        let lost = promised.keys.filter { delivered[$0] == nil }.sorted()
        let duplicates = promised.keys.filter { (delivered[$0] ?? 0) > 1 }.count
        let unpromised = delivered.keys.filter { promised[$0] == nil }.count
        let wrongProject = promised.filter { delivered[$0.key] != nil && !(ending.history[$0.value.project] ?? []).contains($0.key) }.count
        if !lost.isEmpty { failures.append("\(lost.count) promised signal(s) lost") }
        if wrongProject > 0 { failures.append("\(wrongProject) signal(s) delivered to the wrong workflow") }
        let rows = ending.outboxRows ?? [:]
        var states: [String: Int] = [:]
        for row in rows.values { states[row.state, default: 0] += 1 }
        let deliverySeconds = rows.values.compactMap(\.latency)
        let retried = rows.values.filter { $0.attempts > 1 }.count
        let samples = self.samples
        let backlog = samples.compactMap(\.pending).max()

        // Faults observed
        let readiness = readinessChanges
        var faultLines: [String] = []
        for w in activeWindows.sorted(by: { $0.start < $1.start }) {
            let inWindow = attempts.filter { w.contains($0.t) }
            let uploads = inWindow.filter { ["upload-photo", "hostile-upload", "slow-upload"].contains($0.kind) }
            var line = "\(w.name) (+\(Int(w.start - ending.loadStart))s to +\(Int(w.end - ending.loadStart))s): \(w.what)"
            if !w.notes.isEmpty { line += "; " + w.notes.joined(separator: "; ") }
            if w.name == "disk-full" {
                let refused = uploads.filter { $0.status == 503 && $0.code == "outbox_unavailable" }.count
                let passedUploads = uploads.filter { $0.status == 200 }.count
                let promisedIn = uploads.filter { $0.status == 200 && $0.passed == true && w.start + 1 <= $0.t && $0.t <= w.end - 0.5 }.count
                let after = attempts.filter { $0.t > w.end + 3 && $0.status == 503 && $0.code == "outbox_unavailable" }.count
                let ready = readiness.filter { w.contains($0.t, grace: 5) }.count
                line += "; uploads in the window: \(refused) x 503 outbox_unavailable, \(passedUploads) x 200 (\(promisedIn) of them passed, so promised, while the volume was full)"
                line += "; /readyz changes in the window: \(ready)"
                if refused == 0 { warnings.append("disk-full: no upload was refused with 503 outbox_unavailable while the outbox's volume was full") }
                if ready == 0 { warnings.append("disk-full: /readyz stayed ready while the outbox's volume was full") }
                if after > 0 { warnings.append("disk-full: \(after) outbox_unavailable after the filler was deleted") }
            }
            if w.name == "daemon-kill" {
                line += "; \(inWindow.filter { $0.status == nil }.count) requests failed to connect/were cut while it was down"
            }
            faultLines.append(line)
        }
        let excused = activeWindows.filter { ["disk-full", "daemon-kill"].contains($0.name) }
        // Readiness comes back with the next outbox write that succeeds, queued behind the writes
        // held back while the volume was full: 4 to 8 s after the filler goes on a loaded 2-core
        // debug daemon, 10.5 s once with two other builds on the machine, so the disk-full window
        // gets 15 s of grace.
        let readyOutside = readiness.filter { change in !excused.contains { $0.contains(change.t, grace: $0.name == "disk-full" ? 15 : 5) } }
        if !readyOutside.isEmpty { warnings.append("/readyz changed \(readyOutside.count) time(s) outside the disk-full and daemon-kill windows") }
        let healthBad = samples.filter { $0.health != nil && $0.health != 200 && !daemonKill.contains($0.healthAt ?? $0.t, grace: 2) }
        if !healthBad.isEmpty { warnings.append("/healthz was not 200 in \(healthBad.count) sample(s)") }
        let probeMilliseconds = samples.filter { $0.health == 200 }.compactMap(\.healthMilliseconds)

        // The daemon's log
        var levels: [String: Int] = [:], messages: [String: Int] = [:]
        var locked = 0
        for raw in ((try? String(contentsOf: daemonLog, encoding: .utf8)) ?? "").split(separator: "\n") {
            // One writer, serialised by the pool: a lock wait that ran out means a second writer.
            if raw.contains("database is locked") { locked += 1 }
            guard let entry = RawHTTPAnswer.jsonObject(String(raw)) else {
                levels["(not json)", default: 0] += 1
                messages[String(raw.prefix(120)), default: 0] += 1
                continue
            }
            if let level = entry["level"] as? String {
                levels[level, default: 0] += 1
                if ["warning", "error", "critical"].contains(level) { messages["\(level): \(entry["message"] as? String ?? "")", default: 0] += 1 }
            }
        }
        if locked > 0 { warnings.append("\(locked) daemon log line(s) say 'database is locked': two writers contend for the outbox") }

        let resources = resourceSummary(samples: samples, ending: ending, warnings: &warnings)

        // The summary
        var out: [String] = []
        func f(_ value: Double, _ digits: Int = 0) -> String { String(format: "%.\(digits)f", value) }
        out.append("### Soak: `photo-validator-harness soak\(options.smoke ? " --smoke" : "")` (\(options.smoke ? "smoke" : "\(options.minutes) min"), concurrency \(options.concurrency))")
        out.append("")
        out.append("```")
        out.append("binary          \(options.binary.path) (\(version)); \(ProcessInfo.processInfo.activeProcessorCount) cores")
        out.append("daemon config   body limit \(options.bodyLimitMiB) MiB, request timeout \(options.requestTimeout) s, outbox retry max \(options.outboxRetryMaxSeconds) s"
            + (diskFull != nil ? ", outbox on a \(options.outboxFileSystemMiB) MiB tmpfs" : ""))
        out.append("load            \(f(duration)) s: \(attempts.count) requests (\(f(Double(completed.count) / duration, 1))/s answered), \(ok.count) 2xx "
            + "(\(f(Double(validations.count) / duration, 1)) validations/s), \(promised.count) uploads promised a signal")
        out.append("latency 2xx     uploads and validations: p50 \(f(Self.percentile(fastOK, 50))) ms, p90 \(f(Self.percentile(fastOK, 90))) ms, "
            + "p99 \(f(Self.percentile(fastOK, 99))) ms, max \(f(fastOK.max() ?? .nan)) ms (n=\(fastOK.count))")
        for (kind, _) in SoakJob.kinds {
            let items = completed.filter { $0.kind == kind }
            guard !items.isEmpty else { continue }
            let latency = items.map { $0.latency * 1000 }
            var statuses: [Int: Int] = [:]
            for item in items { statuses[item.status!, default: 0] += 1 }
            out.append("  \(kind.padding(toLength: 19, withPad: " ", startingAt: 0)) n=\(String(items.count).padding(toLength: 6, withPad: " ", startingAt: 0)) "
                + "p50 \(f(Self.percentile(latency, 50))) ms  p99 \(f(Self.percentile(latency, 99))) ms  "
                + statuses.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " "))
        }
        out.append("non-2xx         " + (non2xx.isEmpty ? "none" : ""))
        for (key, count) in non2xx.sorted(by: { $0.key < $1.key }) {
            let kinds = (non2xxKinds[key] ?? [:]).sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let odd = unexpected5xx.keys.filter { $0.hasPrefix(key + " on") } + unexpected.keys.filter { $0.hasPrefix(key + " on") }
            out.append("  \(key.padding(toLength: 26, withPad: " ", startingAt: 0)) \(count)  (\(kinds)) \(odd.isEmpty ? "expected" : "UNEXPECTED: " + odd.joined(separator: ", "))")
        }
        if !connectionErrors.isEmpty {
            out.append("no answer       " + connectionErrors.sorted { $0.value > $1.value }.map { "\($0.key) x\($0.value)" }.joined(separator: ", "))
        }
        let counters = statistics.counters
        if !counters.isEmpty { out.append("client notes    " + counters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) }
        out.append("faults")
        for entry in faultLog { out.append("  \(entry.clock) +\(f(entry.t - ending.loadStart, 1))s  \(entry.entry)") }
        for line in faultLines { out.append("  " + line) }
        let timings = proxyTimings.map { $0 * 1000 }
        out.append("proxy           \(proxyCounts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); "
            + "time through proxy and Temporal p50 \(f(Self.percentile(timings, 50))) ms, p99 \(f(Self.percentile(timings, 99))) ms")
        out.append("resources       " + resources[0])
        for line in resources.dropFirst() { out.append("  " + line) }
        out.append("probes          /healthz p50 \(f(Self.percentile(probeMilliseconds, 50))) ms, max \(f(probeMilliseconds.max() ?? .nan)) ms; /readyz changes: "
            + (readiness.isEmpty ? "none" : readiness.map { "+\(Int($0.t - ending.loadStart))s \($0.from)->\($0.to)" }.joined(separator: "; ")))
        out.append("signals         promised \(promised.count), delivered \(promised.count - lost.count), lost \(lost.count); drain \(f(ending.drainSeconds, 1)) s after the load; "
            + "duplicates in history \(duplicates); in history but never promised \(unpromised) (uploads cut off by the daemon kill); "
            + "outbox rows by state \(states.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); dead letters \(ending.deadLetters)")
        if !deliverySeconds.isEmpty {
            out.append("delivery        promise-to-delivery (outbox timestamps) p50 \(f(Self.percentile(deliverySeconds, 50), 1)) s, p90 \(f(Self.percentile(deliverySeconds, 90), 1)) s, "
                + "p99 \(f(Self.percentile(deliverySeconds, 99), 1)) s, max \(f(deliverySeconds.max()!, 1)) s; \(retried) needed more than one attempt; largest backlog sampled \(backlog.map(String.init) ?? "-")")
        }
        for id in lost.prefix(10) {
            let row = rows[id].map { "\($0.state), \($0.attempts) attempts, \($0.reason ?? "-")" } ?? "none"
            out.append("  lost \(id) (project \(promised[id]!.project), promised at +\(f(promised[id]!.t - ending.loadStart, 1))s); outbox row: \(row)")
        }
        out.append("daemon          \(crashes.count) unexpected crash(es); SIGTERM at the end: exit \(ending.exitStatus.map(String.init) ?? "none") after \(f(ending.stopSeconds, 1)) s; "
            + "log levels \(levels.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))")
        for (message, count) in messages.sorted(by: { $0.value > $1.value }).prefix(6) { out.append("  log: \(count) x \(message.prefix(150))") }
        for warning in warnings { out.append("WARNING: " + warning) }
        for failure in failures { out.append("FAILED: " + failure) }
        let failed = !failures.isEmpty || (options.failOnWarnings && !warnings.isEmpty)
        if !warnings.isEmpty && options.failOnWarnings { out.append("FAILED: \(warnings.count) warning(s) and --fail-on-warnings") }
        out.append("result          \(failed ? "FAILED" : "PASSED") (work directory \(workDirectory.path))")
        out.append("```")
        let text = out.joined(separator: "\n")
        SoakLog.write("\n" + text)
        try? Data((text + "\n").utf8).write(to: workDirectory.appendingPathComponent("summary.md"))
        return failed ? 1 : 0
    }

    /// Medians of RSS, descriptors and threads after warm-up and at the end of the load (drift is
    /// a warning in a long run; a smoke run is too short to judge).
    private func resourceSummary(samples: [Sample], ending: Ending, warnings: inout [String]) -> [String] {
        var lines: [String] = []
        let span = max(3 * options.sampleInterval, 0.05 * options.duration)
        let first = samples.filter { $0.generation == 1 && $0.rssKiB != nil }
        if !first.isEmpty {
            lines.append("process 1 (until the deliberate SIGKILL): peak RSS \(first.compactMap(\.rssKiB).max()! / 1024) MiB, "
                + "fds \(first.compactMap(\.fds).min() ?? 0)-\(first.compactMap(\.fds).max() ?? 0), threads \(first.compactMap(\.threads).min() ?? 0)-\(first.compactMap(\.threads).max() ?? 0)")
        }
        let generation = daemonGeneration
        let mine = samples.filter { $0.generation == generation && $0.rssKiB != nil && $0.t <= ending.loadEnd }
        guard let born = mine.first?.t else { return ["no samples"] + lines }
        let warmEnd = born + options.warmupSeconds
        let base = mine.filter { warmEnd <= $0.t && $0.t <= warmEnd + span }
        let end = mine.filter { $0.t >= ending.loadEnd - span }
        guard !base.isEmpty, !end.isEmpty else { return ["too few samples after warm-up (\(base.count) / \(end.count))"] + lines }
        func median(_ values: [Int]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? Double(sorted[sorted.count / 2]) : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let (rss0, rss1) = (median(base.compactMap(\.rssKiB)), median(end.compactMap(\.rssKiB)))
        let (fd0, fd1) = (median(base.compactMap(\.fds)), median(end.compactMap(\.fds)))
        let (th0, th1) = (median(base.compactMap(\.threads)), median(end.compactMap(\.threads)))
        let change = (rss1 - rss0) / rss0 * 100
        let rssFlat = abs(change) <= 10, fdFlat = abs(fd1 - fd0) <= max(4, 0.1 * fd0), threadsFlat = abs(th1 - th0) <= max(2, 0.1 * th0)
        var head = "process \(generation), warm-up end vs end of load, medians over \(Int(span)) s: RSS \(Int(rss0 / 1024)) -> \(Int(rss1 / 1024)) MiB "
            + "(\(String(format: "%+.1f", change))%, \(rssFlat ? "flat within 10%" : "NOT flat"); peak \(mine.compactMap(\.rssKiB).max()! / 1024) MiB), "
            + "fds \(Int(fd0)) -> \(Int(fd1)) (\(fdFlat ? "flat" : "NOT flat")), threads \(Int(th0)) -> \(Int(th1)) (\(threadsFlat ? "flat" : "NOT flat"))"
        if options.smoke {
            head += " [--smoke: too short to judge drift]"
        } else {
            if !rssFlat { warnings.append("RSS after warm-up moved \(String(format: "%+.1f", change))% (more than 10%)") }
            if !fdFlat { warnings.append("open descriptors moved \(Int(fd0)) -> \(Int(fd1))") }
            if !threadsFlat { warnings.append("threads moved \(Int(th0)) -> \(Int(th1))") }
        }
        let diskFull = activeWindows.first { $0.name == "disk-full" }
        let used = samples.filter { $0.fileSystemUsedKiB != nil && !(diskFull?.contains($0.t, grace: 1) ?? false) }.compactMap(\.fileSystemUsedKiB)
        if let most = used.max() {
            lines.append("outbox tmpfs used outside the disk-full window: max \(String(format: "%.2f", Double(most) / 1024)) MiB of \(options.outboxFileSystemMiB)")
        }
        return [head] + lines
    }
}
