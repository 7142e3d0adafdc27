import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Memory figures of a running process, read from `/proc/PID/status`.
public enum ProcStatus {
    /// The value of `field` (such as `VmRSS` or `VmHWM`) of process `pid` in MiB, or nil once it has exited.
    public static func mebibytes(_ field: String, of pid: pid_t) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else {
            return nil
        }
        return kilobytes / 1024
    }
}
