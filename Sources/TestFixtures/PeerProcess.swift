import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A long-running test peer (a Temporal dev server, an OpenAI-compatible server): started, waited
/// for until it answers over HTTP on loopback, and stopped, off the cooperative pool.
package final class PeerProcess: @unchecked Sendable {
    private var process: Process?
    // Guards `process`; tests start and stop a peer from one task at a time.
    private let lock = NSLock()

    /// An idle peer; `start` runs it.
    package init() {}

    deinit {
        process?.terminate()
        process?.waitUntilExit()
    }

    /// Runs `executable` with `arguments` (standard output discarded, standard error appended
    /// to `errorLog` or discarded; `environment` replacing this process's when given) and waits
    /// until `GET path` on `port` answers 200, at most `timeout`; `name` names it in errors,
    /// whose text ends with the log's tail. A stopped peer can be started again.
    package func start(_ executable: URL, _ arguments: [String], name: String, port: Int, path: String,
                      errorLog: URL? = nil, environment: [String: String]? = nil, workingDirectory: URL? = nil,
                      timeout: Duration = .seconds(120)) async throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        if let environment { process.environment = environment }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        if let errorLog {
            if !FileManager.default.fileExists(atPath: errorLog.path) {
                _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: errorLog)
            try handle.seekToEnd()
            process.standardError = handle
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        lock.withLock { self.process = process }
        func tail() -> String { errorLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.map { ": " + $0.suffix(600) } ?? "" }
        // Polled over a plain socket: starting a client process every 100 ms would itself load a busy machine.
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard process.isRunning else { throw Failure(description: "\(name) exited with \(process.terminationStatus)\(tail())") }
            if let answer = try? await RawHTTP.request(port: port, method: "GET", path: path), answer.hasPrefix("HTTP/1.1 200") {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "\(name) did not become ready in \(timeout)\(tail())")
    }

    /// Stops the peer (SIGTERM, then SIGKILL after 5 s) and waits for it to exit, off the cooperative pool.
    package func stop() async {
        let process = lock.withLock { () -> Process? in
            defer { self.process = nil }
            return self.process
        }
        guard let process, process.isRunning else { return }
        process.terminate()
        // A peer that ignores SIGTERM (llama-cpp-python's server under uvicorn did) is killed
        // after a grace period, so the test that stops it cannot hang on its exit.
        _ = try? await offloaded {
            let deadline = ContinuousClock.now + .seconds(5)
            while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// The running (or last) process's id.
    package var processIdentifier: Int32? { lock.withLock { process?.processIdentifier } }

    /// True while the process runs.
    package var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// The exit status of a process that has ended (128 + the signal for one a signal ended), else nil.
    package var exitStatus: Int32? {
        lock.withLock {
            guard let process, !process.isRunning else { return nil }
            return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        }
    }

    /// Kills the process (SIGKILL) and waits for it, off the cooperative pool.
    package func kill() async {
        guard let process = lock.withLock({ self.process }), process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = try? await offloaded { process.waitUntilExit() }
    }

    /// Sends SIGTERM and waits at most `limit` for the exit: its status and the seconds it took,
    /// or nil (and SIGKILL) when it did not exit in time.
    package func terminate(within limit: Duration) async -> (status: Int32?, seconds: Double) {
        guard let process = lock.withLock({ self.process }) else { return (nil, 0) }
        guard process.isRunning else { return (exitStatus, 0) }
        let start = ContinuousClock.now
        process.terminate()
        while process.isRunning, ContinuousClock.now - start < limit {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let seconds = (ContinuousClock.now - start).seconds
        guard !process.isRunning else {
            await kill()
            return (nil, seconds)
        }
        return (exitStatus, seconds)
    }

    /// A peer that did not start or become ready.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }
}
