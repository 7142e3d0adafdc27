import Foundation

/// The cores this process may run on.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's cores on Linux, whatever the process's
/// CPU affinity (taskset, a container's cpuset, systemd's `CPUAffinity=`): a daemon pinned to one
/// core took the other as idle and split a photo's work in two on the one it has.
public enum AvailableCores {
    /// The cores in this process's affinity mask (at least 1); the machine's count where the mask
    /// cannot be read.
    public static var count: Int {
        // Glibc's sched_getaffinity needs _GNU_SOURCE, which Swift's Glibc module leaves out; the
        // kernel shows the same mask in /proc/self/status.
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let cores = affinityCount(status: status), cores > 0 {
            return cores
        }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The cores in the `Cpus_allowed` mask of a `/proc/<pid>/status` text (comma-separated
    /// 32-bit hex groups), or nil when it holds none.
    public static func affinityCount(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for group in line.dropFirst("Cpus_allowed:".count).split(separator: ",") {
            guard let bits = UInt64(group.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            count += bits.nonzeroBitCount
        }
        return count
    }
}
