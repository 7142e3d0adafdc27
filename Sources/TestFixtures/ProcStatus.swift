import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Figures of a running process, read from `/proc/PID/status`.
package enum ProcStatus {
    /// The number in `field` (such as `VmRSS` in KiB, or `Threads`) of process `pid`, or nil once it has exited.
    package static func value(_ field: String, of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else {
            return nil
        }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }

    /// The value of a memory `field` (such as `VmRSS` or `VmHWM`) of process `pid` in MiB, or nil once it has exited.
    package static func mebibytes(_ field: String, of pid: pid_t) -> Double? {
        value(field, of: pid).map { Double($0) / 1024 }
    }
}
