import Foundation
import Subprocess
import Synchronization
import SystemPackage
import TestFixtures

/// Throws mutated photos at a built `photo-validator` and checks that it holds: every file
/// answered within the time limit, `invalid_image` for the known-corrupt classes, and peak
/// resident memory within the decode budget plus a fixed overhead; through `validate` (the batch
/// command) and through the daemon's `POST /v1/validate`, or both.
package struct MutationRun: Sendable {
    /// Which interfaces to run the files through.
    package enum Mode: String, Sendable, CaseIterable {
        /// `photo-validator validate` over the folder.
        case validate
        /// `photo-validator serve`, one upload per file.
        case daemon
        /// Both, one after the other.
        case both
    }

    /// The photos the mutations are made from (relative to the repository).
    package static let seedPhotos = [
        "testdata/variants/same-room.jpg", "testdata/photos/cups.jpg", "testdata/photos/indoor-ceiling-lamps.jpg",
        "testdata/photos/small-indoor-lab.jpg", "testdata/variants/same-room.png", "testdata/photos/small-coffee.png",
        "testdata/variants/same-room.webp", "testdata/variants/same-small.webp", "testdata/variants/same-room.heic",
        "testdata/variants/same-small.heic", "testdata/variants/rotated-6.jpg", "testdata/variants/gray.jpg",
    ]

    /// Random mutations in all (the known and declared-huge ones come on top).
    package let files: Int
    /// The mutations' seed.
    package let seed: UInt64
    /// Which interfaces to run.
    package let mode: Mode
    /// Uploads in flight against the daemon.
    package let concurrency: Int
    /// The decode memory budget given to the validator, in MiB.
    package let decodeMemoryMiB: Int
    /// The resident memory allowed on top of the decode budget, in MiB.
    package let overheadMiB: Int
    /// The longest a file may take, in seconds (the daemon gets one more for the round trip).
    package let maxSeconds: Double
    /// The `photo-validator` binary.
    package let binary: URL

    /// A run of `binary`; the defaults are the long run's.
    package init(binary: URL, files: Int = 3000, seed: UInt64 = 1, mode: Mode = .both, concurrency: Int = 8,
                decodeMemoryMiB: Int = 128, overheadMiB: Int = 160, maxSeconds: Double = 2) {
        (self.binary, self.files, self.seed, self.mode, self.concurrency) = (binary, files, seed, mode, concurrency)
        (self.decodeMemoryMiB, self.overheadMiB, self.maxSeconds) = (decodeMemoryMiB, overheadMiB, maxSeconds)
    }

    /// One file's answer: its failure codes (nil when it got none) and the seconds it took.
    struct Record: Sendable {
        let file: String
        let failures: [String]?
        let seconds: Double
    }

    /// Writes the mutations into a temporary folder, runs them, prints a summary line per mode
    /// through `report` and returns the problems found (none when the validator held).
    package func run(report: @Sendable (String) -> Void) async throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pv-mutation-run-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let set = try MutationSet.write(photos: Self.seedPhotos.map { Fixtures.repositoryRoot.appendingPathComponent($0) },
                                        to: folder, classes: .all, count: files, seed: seed)
        let entries = Dictionary(uniqueKeysWithValues: set.entries.map { ($0.file, $0) })
        let limit = Double(decodeMemoryMiB + overheadMiB)
        var problems: [String] = []
        if mode != .daemon {
            let start = ContinuousClock.now
            let (records, peak) = try await runValidate(folder: folder)
            let (found, slowest, verdicts) = Self.check(records, entries: entries, maxSeconds: maxSeconds, label: "validate")
            problems += found
            let missing = Set(entries.keys).subtracting(records.map(\.file)).count
            if missing > 0 { problems.append("validate: \(missing) files got no record") }
            report("validate: \(records.count) files in \(Self.format(ContinuousClock.now - start)) s, slowest \(Int(slowest * 1000)) ms, "
                + "peak RSS \(Int(peak)) MiB (limit \(Int(limit))); verdicts \(Self.describe(verdicts))")
            if peak > limit { problems.append("validate: peak RSS \(Int(peak)) MiB over \(Int(limit)) MiB") }
        }
        if mode != .validate {
            let start = ContinuousClock.now
            let (records, peak, healthy) = try await runDaemon(folder: folder, files: entries.keys.sorted())
            let (found, slowest, verdicts) = Self.check(records, entries: entries, maxSeconds: maxSeconds + 1, label: "daemon")
            problems += found
            report("daemon: \(records.count) uploads at concurrency \(concurrency) in \(Self.format(ContinuousClock.now - start)) s, "
                + "slowest \(Int(slowest * 1000)) ms, peak RSS \(Int(peak)) MiB (limit \(Int(limit)) + bodies in flight); "
                + "healthy after: \(healthy); verdicts \(Self.describe(verdicts))")
            let bodies = Double(concurrency * 3)
            if peak > limit + bodies { problems.append("daemon: peak RSS \(Int(peak)) MiB over \(Int(limit + bodies)) MiB") }
            if !healthy { problems.append("daemon: /healthz was not ok after the run") }
        }
        return problems
    }

    /// The problems in `records`, the slowest file's seconds, and how many files got each verdict.
    static func check(_ records: [Record], entries: [String: MutationSet.Entry], maxSeconds: Double, label: String)
        -> (problems: [String], slowest: Double, verdicts: [String: Int])
    {
        var problems: [String] = [], slowest = 0.0, verdicts: [String: Int] = [:]
        for record in records {
            guard let entry = entries[record.file] else { continue }
            slowest = max(slowest, record.seconds)
            verdicts[record.failures?.joined(separator: ",") ?? "no answer", default: 0] += 1
            if record.failures == nil {
                problems.append("\(label): \(record.file): no answer")
            } else if record.seconds > maxSeconds {
                problems.append("\(label): \(record.file) (\(entry.mutationClass)): \(String(format: "%.2f", record.seconds)) s")
            } else if entry.expectation == .invalid, record.failures != ["invalid_image"] {
                problems.append("\(label): \(record.file) (\(entry.mutationClass)): \(record.failures ?? []), expected invalid_image")
            }
        }
        return (problems, slowest, verdicts)
    }

    /// `photo-validator validate --format jsonl` over `folder`: a record per file (its time is the
    /// validator's own total) and the process's peak resident memory in MiB.
    private func runValidate(folder: URL) async throws -> ([Record], Double) {
        let arguments = ["validate", "--format", "jsonl", "--no-progress", "--jobs", "2", "--timeout", Self.format(maxSeconds),
                         "--decode-memory", String(decodeMemoryMiB), folder.path]
        let result = try await Subprocess.run(
            .path(FilePath(binary.path)), arguments: Arguments(arguments), input: .none, output: .sequence, error: .discarded
        ) { execution in
            let pid = execution.processIdentifier.value
            let peak = PeakMemory()
            return try await withThrowingTaskGroup(of: [Record]?.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        peak.record(ProcStatus.mebibytes("VmHWM", of: pid))
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                    return nil
                }
                group.addTask {
                    var records: [Record] = []
                    for try await line in execution.standardOutput.strings() {
                        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                              let path = object["path"] as? String else { continue }
                        let timings = (object["details"] as? [String: Any])?["timings_ms"] as? [String: Any]
                        records.append(Record(file: URL(fileURLWithPath: path).lastPathComponent, failures: object["failures"] as? [String],
                                              seconds: ((timings?["total"] as? Double) ?? 0) / 1000))
                        peak.record(ProcStatus.mebibytes("VmHWM", of: pid))
                    }
                    return records
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let records = next { return (records, peak.mebibytes) }
                }
                return ([], peak.mebibytes)
            }
        }
        return result.closureResult
    }

    /// The daemon, `concurrency` uploads at a time (each retried after a 503 `overloaded`): a record
    /// per file, the daemon's peak resident memory in MiB, and whether `/healthz` answered after.
    private func runDaemon(folder: URL, files: [String]) async throws -> ([Record], Double, Bool) {
        let arguments = ["--port", "0", "--validation-timeout", Self.format(maxSeconds), "--log-level", "info"]
        let environment = ["PHOTO_VALIDATOR_DECODE_MEMORY_MIB": String(decodeMemoryMiB)]
        let concurrency = max(1, concurrency)
        let (value, exit) = try await DaemonProcess.run(arguments, environment: environment, executable: binary.path) { daemon in
            let port = try daemon.port
            let peak = PeakMemory()
            let records = try await withThrowingTaskGroup(of: Record?.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        peak.record(daemon.peakResidentMiB)
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                    return nil
                }
                var pending = files[...]
                var records: [Record] = []
                for _ in 0..<concurrency {
                    guard let file = pending.popFirst() else { break }
                    group.addTask { try await Self.upload(folder.appendingPathComponent(file), port: port) }
                }
                while records.count < files.count, let next = try await group.next() {
                    guard let record = next else { continue }
                    records.append(record)
                    if let file = pending.popFirst() {
                        group.addTask { try await Self.upload(folder.appendingPathComponent(file), port: port) }
                    }
                }
                group.cancelAll()
                return records
            }
            let health = try? await RawHTTP.request(port: port, method: "GET", path: "/healthz")
            return (records, peak.mebibytes, health.flatMap(RawHTTPAnswer.init)?.status == 200)
        }
        guard exit.status == 0 else {
            throw MutationSet.Failure(description: "the daemon exited with status \(exit.status) after SIGTERM; its last lines:\n"
                + exit.log.suffix(20).joined(separator: "\n"))
        }
        return value
    }

    /// Posts one file, retrying after a 503 `overloaded` (up to 50 times, a tenth of Retry-After apart).
    private static func upload(_ file: URL, port: Int) async throws -> Record {
        let body = [UInt8](try Data(contentsOf: file))
        let began = ContinuousClock.now
        for _ in 0..<50 {
            let text = try await RawHTTP.request(port: port, method: "POST", path: "/v1/validate?photo_type=room",
                                                 headers: ["Content-Type: application/octet-stream"], body: body)
            guard let answer = RawHTTPAnswer(text) else { break }
            let json = answer.json
            if answer.status == 503, json?["error"] as? String == "overloaded" {
                let retryAfter = answer.headers["retry-after"].flatMap(Double.init) ?? 1
                try await Task.sleep(for: .seconds(retryAfter / 10))
                continue
            }
            let seconds = (ContinuousClock.now - began).seconds
            guard answer.status == 200 else {
                return Record(file: file.lastPathComponent, failures: ["http_\(answer.status):\(json?["error"] as? String ?? "")"], seconds: seconds)
            }
            return Record(file: file.lastPathComponent, failures: json?["failures"] as? [String], seconds: seconds)
        }
        return Record(file: file.lastPathComponent, failures: nil, seconds: (ContinuousClock.now - began).seconds)
    }

    private static func describe(_ verdicts: [String: Int]) -> String {
        "{" + verdicts.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    }

    private static func format(_ seconds: Double) -> String { String(format: "%g", seconds) }

    private static func format(_ duration: Duration) -> String { String(format: "%.1f", duration.seconds) }
}

/// The largest memory figure sampled so far, shared by a sampling task and its reader.
private final class PeakMemory: Sendable {
    private let largest = Mutex(0.0)

    /// The largest figure recorded, MiB.
    var mebibytes: Double { largest.withLock { $0 } }

    /// Keeps `sample` when it is the largest so far.
    func record(_ sample: Double?) {
        guard let sample else { return }
        largest.withLock { $0 = max($0, sample) }
    }
}
