import Foundation

/// A long-running test peer (a Temporal dev server, an OpenAI-compatible server): started, waited
/// for until it answers over HTTP on loopback, and stopped, off the cooperative pool.
public final class PeerProcess: @unchecked Sendable {
    private var process: Process?
    // Guards `process`; tests start and stop a peer from one task at a time.
    private let lock = NSLock()

    /// An idle peer; `start` runs it.
    public init() {}

    deinit {
        process?.terminate()
        process?.waitUntilExit()
    }

    /// Runs `executable` with `arguments` (standard output discarded, standard error to
    /// `errorLog` or discarded) and waits until `GET path` on `port` answers 200, at most
    /// `timeout`; `name` names it in errors, whose text ends with the log's tail.
    public func start(_ executable: URL, _ arguments: [String], name: String, port: Int, path: String,
                      errorLog: URL? = nil, timeout: Duration = .seconds(120)) async throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errorLog)
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

    /// Stops the peer (SIGTERM) and waits for it to exit, off the cooperative pool.
    public func stop() async {
        let process = lock.withLock { () -> Process? in
            defer { self.process = nil }
            return self.process
        }
        guard let process, process.isRunning else { return }
        process.terminate()
        _ = try? await offloaded { process.waitUntilExit() }
    }

    /// A peer that did not start or become ready.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }
}
