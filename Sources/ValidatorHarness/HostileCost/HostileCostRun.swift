import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import TestFixtures
#endif

/// `photo-validator-harness hostile-cost`: each attack of `HostileCostCorpus` once against a
/// built daemon (its answer and time), then the sustained mode: attackers re-sending them for a
/// while, each as its own client, while a good photo is timed every two seconds.
package struct HostileCostRun: Sendable {
    /// The daemon binary.
    package let binary: URL
    /// The good photo timed during the attack.
    package let goodPhoto: URL
    /// Attacker clients in the sustained mode.
    package let attackers: Int
    /// Seconds of sustained attack (0: none).
    package let seconds: Int
    /// The longest a good photo's answer may take during the attack.
    package let goodLimit: Duration
    /// The longest one attack's answer may take.
    package let attackLimit: Duration
    /// Extra `serve` arguments (none: the defaults).
    package let daemonArguments: [String]

    /// A run.
    package init(binary: URL, goodPhoto: URL, attackers: Int, seconds: Int, goodLimit: Duration, attackLimit: Duration, daemonArguments: [String] = []) {
        (self.binary, self.goodPhoto, self.attackers, self.seconds, self.goodLimit, self.attackLimit) = (binary, goodPhoto, attackers, seconds, goodLimit, attackLimit)
        self.daemonArguments = daemonArguments
    }

    /// A broken expectation.
    package struct Failure: Error, CustomStringConvertible {
        /// What broke.
        package let description: String
    }

    /// Runs it, reporting lines to `report`; throws when an attack got the wrong answer or took
    /// too long, or a good photo was answered late or not at all.
    package func run(report: @escaping @Sendable (String) -> Void) async throws {
        let attacks = try HostileCostCorpus.attacks()
        let good = Array(try Data(contentsOf: goodPhoto))
        let (problems, exit) = try await DaemonProcess.run(["--port", "0"] + daemonArguments, executable: binary.path) { daemon -> [String] in
            let port = try daemon.port
            var problems: [String] = []
            report("daemon: \(binary.path) serve (defaults); good photo: \(goodPhoto.lastPathComponent) (\(good.count) bytes)")
            let idle = try await Self.send(port: port, contentType: "image/jpeg", body: good, client: "good")
            report(String(format: "good photo alone: %.3f s (status %d)", idle.seconds, idle.status))
            for attack in attacks {
                let answer = try await Self.send(port: port, contentType: attack.contentType, body: attack.body, client: "attacker-0")
                let verdict = answer.status == attack.expectedStatus && (attack.expectedError == nil || answer.error == attack.expectedError)
                let line = String(format: "%-55@ %9d bytes  %6.3f s  %d %@", attack.name as NSString, attack.body.count, answer.seconds, answer.status, (answer.error ?? "") as NSString)
                report(line)
                if !verdict { problems.append("\(attack.name): status \(answer.status) \(answer.error ?? "-"), expected \(attack.expectedStatus) \(attack.expectedError ?? "-")") }
                if answer.seconds > attackLimit.seconds { problems.append("\(attack.name) took \(answer.seconds) s") }
            }
            guard seconds > 0 else { return problems + (try await Self.terminateMidUpload(daemon, port: port, report: report)) }
            let end = ContinuousClock.now + .seconds(seconds)
            let tally = Tally()
            await withTaskGroup(of: Void.self) { group in
                for attacker in 0..<attackers {
                    group.addTask {
                        var index = attacker
                        while ContinuousClock.now < end {
                            let attack = attacks[index % attacks.count]
                            _ = try? await Self.send(port: port, contentType: attack.contentType, body: attack.body, client: "attacker-\(attacker)")
                            tally.sent.add(1, ordering: .relaxed)
                            index += 1
                        }
                    }
                }
                group.addTask {
                    while ContinuousClock.now < end {
                        let started = ContinuousClock.now
                        do {
                            let answer = try await Self.send(port: port, contentType: "image/jpeg", body: good, client: "good")
                            tally.goodTimes.withLock { $0.append(answer.seconds) }
                            if answer.status != 200 || answer.error != nil { tally.goodFailures.withLock { $0.append("status \(answer.status) \(answer.error ?? "")") } }
                        } catch {
                            tally.goodFailures.withLock { $0.append("\(error)") }
                        }
                        try? await Task.sleep(until: started + .seconds(2))
                    }
                }
            }
            let times = tally.goodTimes.withLock { $0 }.sorted()
            report(String(format: "sustained: %d attackers for %d s sent %d attacks; good photo answered %d times, median %.3f s, worst %.3f s",
                          attackers, seconds, tally.sent.load(ordering: .relaxed), times.count, times.isEmpty ? .nan : times[times.count / 2], times.last ?? .nan))
            report("daemon peak RSS: \(Int(daemon.peakResidentMiB ?? 0)) MiB")
            problems += tally.goodFailures.withLock { $0 }.map { "good photo: \($0)" }
            if let worst = times.last, worst > goodLimit.seconds { problems.append(String(format: "the good photo took %.3f s under attack (limit %.1f s)", worst, goodLimit.seconds)) }
            if times.isEmpty { problems.append("the good photo was never answered") }
            return problems + (try await Self.terminateMidUpload(daemon, port: port, report: report))
        }
        guard exit.status == 0 else { throw Failure(description: "the daemon exited with status \(exit.status): \(exit.log.suffix(10).joined(separator: "\n"))") }
        guard problems.isEmpty else { throw Failure(description: problems.joined(separator: "\n")) }
        report("hostile-cost: every attack answered as expected")
    }

    /// Starts an upload that stalls halfway, sends SIGTERM, and checks the daemon is gone within
    /// its grace period (25 s by default) less a second.
    static func terminateMidUpload(_ daemon: DaemonProcess, port: Int, report: @escaping @Sendable (String) -> Void) async throws -> [String] {
        let socket = try await offloaded { try RawHTTP.blockingConnect(port: port, timeout: 60) }
        defer { close(socket) }
        try await RawHTTP.write(socket, RawHTTP.head(method: "POST", path: "/v1/validate?photo_type=room", headers: ["Content-Type: image/jpeg"], length: 10 << 20)
            + [UInt8](repeating: 0xFF, count: 1 << 20))
        try await Task.sleep(for: .milliseconds(500))
        let signalled = ContinuousClock.now
        daemon.send(SIGTERM)
        while daemon.residentMiB != nil, ContinuousClock.now - signalled < .seconds(30) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let took = (ContinuousClock.now - signalled).seconds
        report(String(format: "SIGTERM with an upload stalled halfway: the daemon was gone after %.2f s (grace 25 s)", took))
        return took < 24.5 ? [] : [String(format: "the daemon took %.1f s to exit after SIGTERM", took)]
    }

    /// One upload on its own connection, as `client` (the queueing key, through `X-Client-Id`),
    /// on a thread of its own (never the cooperative pool). The body is written from another
    /// thread while the answer is read, as a browser does: a server may answer (a 400 for a bad
    /// boundary) and stop reading before the body is all sent.
    static func send(port: Int, contentType: String, body: [UInt8], client: String) async throws -> (status: Int, error: String?, seconds: Double) {
        try await offloaded {
            let started = ContinuousClock.now
            let socket = try RawHTTP.blockingConnect(port: port, timeout: 120)
            defer { close(socket) }
            let request = RawHTTP.head(method: "POST", path: "/v1/validate?photo_type=room",
                                       headers: ["Content-Type: \(contentType)", "X-Client-Id: \(client)"], length: body.count) + body
            let written = DispatchSemaphore(value: 0)
            let writer = Thread {
                _ = try? RawHTTP.blockingWrite(socket, request)
                written.signal()
            }
            writer.start()
            let text = RawHTTP.blockingReadAll(socket)
            let seconds = (ContinuousClock.now - started).seconds
            shutdown(socket, Int32(SHUT_RDWR))
            written.wait()
            guard let answer = RawHTTPAnswer(text) else { throw Failure(description: "no HTTP answer (\(text.prefix(80)))") }
            let details = answer.json?["details"] as? [String: Any]
            return (answer.status, details?["error"] as? String, seconds)
        }
    }
}

/// What the sustained mode's tasks count, shared between them.
private final class Tally: Sendable {
    let sent = Atomic<Int>(0)
    let goodTimes = Mutex<[Double]>([])
    let goodFailures = Mutex<[String]>([])
}
