import Foundation
import Synchronization

/// The soak's clock and its log: every line stamped with the wall time and the seconds since
/// the run began, printed whole even when threads log at once.
package final class SoakLog: Sendable {
    private let start = ContinuousClock.now
    private let lock = Mutex(())

    /// A log whose clock starts now.
    package init() {}

    /// Seconds since the run began.
    package var now: Double { (ContinuousClock.now - start).seconds }

    /// The wall clock as HH:MM:SS.
    package static func wallClock() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }

    /// Prints `message` with its stamps.
    package func callAsFunction(_ message: String) {
        let line = "[\(Self.wallClock()) +\(String(format: "%7.1f", now))s] \(message)"
        lock.withLock { _ in Self.write(line) }
    }

    /// Writes `text` and a newline to standard output at once (unbuffered, so lines from
    /// several threads and a killed run are never lost or interleaved).
    package static func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
