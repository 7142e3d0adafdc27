import Foundation
import TestFixtures

/// The wrk load generator (Debian's `wrk`): found, and run with a Lua script that ends with one
/// `RESULT name=value ...` line of figures.
package enum Wrk {
    /// wrk is not installed, or gave no figures.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        package let description: String
    }

    /// The installed `wrk`.
    package static func executable() throws -> URL {
        guard let path = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure(description: "wrk is not installed: apt-get install wrk (scripts/setup --test installs it)")
        }
        return URL(fileURLWithPath: path)
    }

    /// Runs wrk against `url` for `seconds` with `connections` (on one thread, or two from two
    /// connections up), the Lua `script` and `environment`, and returns its RESULT figures.
    package static func run(url: String, connections: Int, seconds: Int, script: String, environment: [String: String]) async throws -> [String: Double] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pv-wrk-\(UUID().uuidString).lua")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let arguments = ["-t\(connections < 2 ? 1 : 2)", "-c\(connections)", "-d\(seconds)s", "--timeout", "30s", "-s", file.path, url]
        let outcome = try await ProcessRunner.run(try executable(), arguments, environment: environment)
        guard let line = outcome.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") }) else {
            throw Failure(description: "wrk gave no figures (status \(outcome.status)): \(outcome.standardError)")
        }
        return Dictionary(line.dropFirst("RESULT ".count).split(separator: " ").compactMap { pair -> (String, Double)? in
            let parts = pair.split(separator: "=")
            return parts.count == 2 ? (String(parts[0]), Double(parts[1]) ?? .nan) : nil
        }, uniquingKeysWith: { $1 })
    }
}
