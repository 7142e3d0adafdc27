import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension PostgresCluster {
    /// Freezes the running server as a partition or a paused machine would: SIGSTOP to the
    /// postmaster, then to every process it started (backends and helpers), so that connections
    /// stay open and nothing answers. Returns the processes stopped, for `thaw(_:)`.
    ///
    /// - Throws: `Failure` when the server's process cannot be found or stopped.
    package func freeze() throws -> [pid_t] {
        let pidFile = folder + "/data/postmaster.pid"
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let first = text.split(separator: "\n").first, let postmaster = pid_t(first.trimmingCharacters(in: .whitespaces)) else {
            throw Failure(description: "no running server: \(pidFile) is missing or unreadable")
        }
        // The postmaster first, so that it starts no process after the children are listed.
        guard kill(postmaster, SIGSTOP) == 0 else { throw Failure(description: "cannot stop the postmaster \(postmaster) (errno \(errno))") }
        var stopped = [postmaster]
        for child in Self.children(of: postmaster) where kill(child, SIGSTOP) == 0 {
            stopped.append(child)
        }
        return stopped
    }

    /// Lets the processes `freeze()` stopped run again: the children first, then the postmaster.
    package func thaw(_ processes: [pid_t]) {
        for process in processes.reversed() {
            kill(process, SIGCONT)
        }
    }

    /// The processes whose parent is `parent`, from /proc.
    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command's closing parenthesis: the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }
}
