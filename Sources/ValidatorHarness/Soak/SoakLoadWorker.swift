import Foundation
import TestFixtures

/// One client of a soak, on a thread of its own: random jobs one after another on a keep-alive
/// connection until the load stops, each retried after a retryable 503.
final class SoakLoadWorker: @unchecked Sendable {
    // Used from its own thread only, after init.
    private let run: SoakRun
    private var generator: SplitMix64
    private var connection: BlockingHTTPConnection?
    private static let retryable503: Set<String> = ["overloaded", "outbox_unavailable", "validation_timeout", "shutting_down"]

    /// Client number `index` of `run`.
    init(index: Int, run: SoakRun) {
        self.run = run
        generator = SplitMix64(state: run.options.seed &* 1000 &+ UInt64(index))
    }

    /// Runs jobs until the load stops.
    func loop() {
        while !run.loadStopped {
            let job = SoakJob.random(corpus: run.corpus, projects: run.projects, using: &generator)
            perform(job)
        }
        connection = nil
    }

    private func perform(_ job: SoakJob) {
        for attempt in 0...run.options.maxRetries {
            let started = ContinuousClock.now
            let (response, error) = exchange(job)
            let t = run.log.now
            let json = response?.json
            let code = json?["error"] as? String
            let validation = (json?["validation"] as? [String: Any]) ?? json
            let passed = response?.status == 200 ? validation?["passed"] as? Bool : nil
            run.statistics.add(SoakStatistics.Attempt(
                t: t, kind: job.kind, status: response?.status, code: code, latency: (ContinuousClock.now - started).seconds,
                attempt: attempt, error: error, label: job.label, generation: run.daemonGeneration, passed: passed
            ))
            if response?.status == 200, let project = job.upload, passed == true, let photoID = json?["photo_id"] as? String {
                run.statistics.promise(photoID, project: project, at: t)
            }
            if response?.status == 503, let code, Self.retryable503.contains(code), !run.loadStopped {
                let retryAfter = response?.headers["retry-after"].flatMap(Double.init) ?? 1
                Thread.sleep(forTimeInterval: min(retryAfter, 10))
                continue
            }
            if response == nil { Thread.sleep(forTimeInterval: 0.25) }
            return
        }
    }

    /// One attempt: the response, or the name of what failed.
    private func exchange(_ job: SoakJob) -> (BlockingHTTPConnection.Response?, String?) {
        do {
            return (try job.style == .normal ? normal(job) : special(job), nil)
        } catch let failure as BlockingHTTPConnection.Failure {
            connection = nil
            return (nil, failure.name)
        } catch {
            connection = nil
            return (nil, String(describing: type(of: error)))
        }
    }

    private func normal(_ job: SoakJob) throws -> BlockingHTTPConnection.Response {
        for reuse in [true, false] {
            let reused = reuse && connection != nil
            if !reuse || connection == nil || connection!.closed {
                connection = try BlockingHTTPConnection(port: run.daemonPort, timeout: run.options.clientTimeout)
            }
            do {
                let response = try connection!.request(method: job.method, path: job.path, headers: job.headers, body: job.body)
                if connection!.closed { connection = nil }
                return response
            } catch let failure as BlockingHTTPConnection.Failure where reused && ["ConnectionClosed", "ConnectionReset", "BrokenPipe"].contains(failure.name) {
                // The daemon closed an idle keep-alive connection: retry once on a fresh one.
                connection = nil
                run.statistics.bump("stale_keepalive_retries")
            }
        }
        throw BlockingHTTPConnection.Failure(name: "ConnectionClosed")
    }

    private func special(_ job: SoakJob) throws -> BlockingHTTPConnection.Response {
        let connection = try BlockingHTTPConnection(port: run.daemonPort, timeout: run.options.clientTimeout)
        switch job.style {
        case .declared:
            // Answered before any byte of the body is sent.
            try connection.sendHead(method: job.method, path: job.path, headers: job.headers + ["Content-Length: \(run.corpus.bodyLimit + (1 << 20))"])
            return try connection.readResponse()
        case .chunked:
            try connection.sendHead(method: job.method, path: job.path, headers: job.headers + ["Transfer-Encoding: chunked"])
            do {
                var sent = 0
                while sent <= run.corpus.bodyLimit {
                    try connection.send(Array(String(1 << 20, radix: 16).utf8) + [13, 10] + run.corpus.megabyte + [13, 10])
                    sent += 1 << 20
                }
                try connection.send(Array("0\r\n\r\n".utf8))
            } catch {
                run.statistics.bump("chunked_oversized_cut_off_while_sending")
            }
            return try connection.readResponse()
        case .trickle, .stall:
            try connection.sendHead(method: job.method, path: job.path, headers: job.headers + ["Content-Length: \(job.body.count)"])
            let size = max(1, job.body.count / 20 + 1)
            var pieces = stride(from: 0, to: job.body.count, by: size).map { Array(job.body[$0..<min($0 + size, job.body.count)]) }
            if job.style == .stall { pieces = Array(pieces.prefix(pieces.count / 2)) }
            let pause = run.options.slowBodySeconds / Double(max(1, pieces.count))
            for piece in pieces {
                try connection.send(piece)
                Thread.sleep(forTimeInterval: pause)
            }
            return try connection.readResponse()
        case .normal:
            return try connection.request(method: job.method, path: job.path, headers: job.headers, body: job.body)
        }
    }
}
