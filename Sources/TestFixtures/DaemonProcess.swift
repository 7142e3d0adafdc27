import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Subprocess
import Synchronization
import SystemPackage

/// A `photo-validator serve` child process under test: its port, its log, and signals.
package final class DaemonProcess: Sendable {
    /// What happened once the daemon exited.
    package struct Exit: Sendable {
        /// The exit status, or 128 + the signal number.
        package let status: Int32
        /// Every line the daemon logged.
        package let log: [String]
    }

    private let processID: pid_t
    private let lines = Mutex<[String]>([])
    private let portValue = Mutex<Int?>(nil)
    private let signalled = Mutex(false)

    private init(processID: pid_t) {
        self.processID = processID
    }

    /// The TCP port the daemon listens on.
    package var port: Int {
        get throws {
            guard let port = portValue.withLock({ $0 }) else { throw StartFailure(log: log) }
            return port
        }
    }

    /// The lines logged so far.
    package var log: [String] { lines.withLock { $0 } }

    /// The daemon's resident memory in MiB, from /proc (nil once it has exited).
    package var residentMiB: Double? { ProcStatus.mebibytes("VmRSS", of: processID) }

    /// The daemon's peak resident memory so far in MiB, from /proc (nil once it has exited).
    package var peakResidentMiB: Double? { ProcStatus.mebibytes("VmHWM", of: processID) }

    /// Sends `signal` (SIGTERM by default) to the daemon.
    package func send(_ signal: Int32 = SIGTERM) {
        signalled.withLock { $0 = true }
        kill(processID, signal)
    }

    /// The daemon did not report a listening port.
    package struct StartFailure: Error, CustomStringConvertible {
        /// What it logged.
        package let log: [String]
        /// The log, for the test report.
        package var description: String { "the daemon did not start listening; it logged:\n" + log.joined(separator: "\n") }
    }

    /// Starts `photo-validator serve` with `arguments`, waits until it listens, runs `body`, then
    /// stops the daemon with SIGTERM if `body` did not, and returns `body`'s value with the exit.
    /// A non-empty `launcher` (a program and its arguments, which must `exec` the rest of its
    /// command line) runs the daemon, for example under a sandbox; `executable` replaces the path
    /// of the built binary, for a launcher that puts it somewhere else (as a sandbox's bind does).
    package static func run<Value: Sendable>(
        _ arguments: [String],
        environment: [String: String] = [:],
        launcher: [String] = [],
        executable: String? = nil,
        _ body: @escaping @Sendable (DaemonProcess) async throws -> Value
    ) async throws -> (value: Value, exit: Exit) {
        let command = launcher + [executable ?? ProcessRunner.photoValidatorExecutable.path, "serve"] + arguments
        let overrides = Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), Optional($0.value)) })
        let holder = Mutex<DaemonProcess?>(nil)
        let result = try await Subprocess.run(
            .path(FilePath(command[0])),
            arguments: Arguments(Array(command.dropFirst())),
            environment: .inherit.updating(overrides),
            input: .none,
            output: .discarded,
            error: .sequence
        ) { execution in
            let daemon = DaemonProcess(processID: execution.processIdentifier.value)
            holder.withLock { $0 = daemon }
            return try await withThrowingTaskGroup(of: Value?.self) { group in
                let listening = AsyncStream<Bool>.makeStream()
                group.addTask {
                    for try await line in execution.standardError.strings() {
                        daemon.lines.withLock { $0.append(line) }
                        if let port = Self.listeningPort(in: line) {
                            daemon.portValue.withLock { $0 = port }
                            listening.continuation.yield(true)
                        }
                    }
                    listening.continuation.finish()
                    return nil
                }
                group.addTask {
                    var started = false
                    for await _ in listening.stream { started = true; break }
                    guard started else { throw StartFailure(log: daemon.log) }
                    let value = try await body(daemon)
                    if !daemon.signalled.withLock({ $0 }) { daemon.send(SIGTERM) }
                    return value
                }
                var value: Value?
                for try await result in group where result != nil {
                    value = result
                }
                return value!
            }
        }
        let status: Int32 = switch result.terminationStatus {
        case .exited(let code): Int32(code)
        case .signaled(let signal): 128 + Int32(signal)
        }
        return (result.closureResult, Exit(status: status, log: holder.withLock { $0?.log ?? [] }))
    }

    /// The port in Hummingbird's "Server started and listening on HOST:PORT" line.
    static func listeningPort(in line: String) -> Int? {
        guard let range = line.range(of: "listening on ") else { return nil }
        let address = line[range.upperBound...].prefix { !$0.isWhitespace && $0 != "\"" }
        guard let colon = address.lastIndex(of: ":") else { return nil }
        return Int(address[address.index(after: colon)...])
    }
}
