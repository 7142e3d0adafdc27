import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL cluster for the shared store's tests: `initdb` in a new temporary folder,
/// `pg_ctl` serving it on a Unix socket in that folder only (no TCP), stopped and deleted by the
/// test. As root, the server's commands run as the `postgres` user, since initdb refuses root.
package final class PostgresCluster: Sendable {
    /// The folder holding `initdb` and `pg_ctl`: `PHOTO_VALIDATOR_POSTGRES_BIN`, else the newest
    /// `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package), else `initdb` on the PATH.
    package static let binaries: URL? = {
        let fileManager = FileManager.default
        func holdsServer(_ folder: String) -> Bool {
            fileManager.isExecutableFile(atPath: folder + "/initdb") && fileManager.isExecutableFile(atPath: folder + "/pg_ctl")
        }
        if let folder = ProcessInfo.processInfo.environment["PHOTO_VALIDATOR_POSTGRES_BIN"], holdsServer(folder) {
            return URL(fileURLWithPath: folder)
        }
        let versions = ((try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() where holdsServer("/usr/lib/postgresql/\(version)/bin") {
            return URL(fileURLWithPath: "/usr/lib/postgresql/\(version)/bin")
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) where holdsServer(folder) {
            return URL(fileURLWithPath: folder)
        }
        return nil
    }()

    /// True when tests that need PostgreSQL can run (or must, under `scripts/test`, where a
    /// missing server then fails them).
    package static var available: Bool { binaries != nil || Fixtures.peersRequired }

    /// The cluster's folder: its data, its log and its socket.
    package let folder: String
    /// The loopback TCP port it also listens on, or nil for its Unix socket alone.
    package let tcpPort: Int?
    /// Whether commits are synced to disk, as in production (tests run faster without).
    package let durable: Bool
    private let asPostgresUser: Bool

    /// A cluster in a new temporary folder, on its Unix socket and, with `tcpPort`, on that
    /// loopback port as well, syncing its commits when `durable`; call `start()`.
    package init(tcpPort: Int? = nil, durable: Bool = false) throws {
        self.tcpPort = tcpPort
        self.durable = durable
        // Short and under /tmp: a socket's path is limited to 107 bytes.
        folder = "/tmp/pv-pg-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        asPostgresUser = geteuid() == 0
        if asPostgresUser {
            guard let user = getpwnam("postgres") else {
                throw Failure(description: "running as root, and there is no postgres user to run the server as (apt-get install postgresql)")
            }
            guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw Failure(description: "cannot give \(folder) to the postgres user (errno \(errno))")
            }
        }
    }

    /// The URL of `database` for a client as the `postgres` role: over loopback TCP when the
    /// cluster listens there, else over its socket.
    package func url(database: String = "postgres") -> String {
        tcpPort.map { "postgres://postgres@127.0.0.1:\($0)/\(database)" } ?? "postgres://postgres@/\(database)?host=\(folder)"
    }

    /// The port the server's socket file is named after.
    private var port: String { String(tcpPort ?? 5432) }

    /// Initialises the cluster when new and starts the server, waiting until it accepts connections.
    package func start() async throws {
        if !FileManager.default.fileExists(atPath: folder + "/data/PG_VERSION") {
            try await run("initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        }
        // fsync off unless durable: a test's data need not outlive a crash of the machine.
        try await run("pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-w", "-t", "60",
                                 "-o", "-k \(folder) -p \(port) -c listen_addresses='\(tcpPort == nil ? "" : "127.0.0.1")' -c fsync=\(durable ? "on" : "off") -c max_connections=200",
                                 "start"])
    }

    /// Stops the server (fast shutdown: connections are closed), keeping the data for `start()`.
    package func stop() async {
        _ = try? await run("pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// Stops the server and deletes the cluster's folder.
    package func destroy() async {
        await stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Creates a new, empty database and returns its URL.
    package func createDatabase(_ name: String = "pv_" + UUID().uuidString.prefix(8).lowercased()) async throws -> String {
        try await run("createdb", ["-h", folder, "-p", port, "-U", "postgres", name])
        return url(database: name)
    }

    /// Runs `sql` with `psql` against the database at `url`; returns its rows, unaligned, one a line.
    @discardableResult
    package func psql(_ url: String, _ sql: String) async throws -> String {
        try await run("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
    }

    /// Runs a started cluster for `body`, then stops and deletes it, whatever `body` does.
    package static func with<Result>(_ body: (PostgresCluster) async throws -> Result) async throws -> Result {
        let cluster = try PostgresCluster()
        do {
            try await cluster.start()
            let result = try await body(cluster)
            await cluster.destroy()
            return result
        } catch {
            await cluster.destroy()
            throw error
        }
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) async throws -> String {
        guard let binaries = Self.binaries else {
            throw Failure(description: "PostgreSQL's server is not installed: run scripts/setup --test (apt-get install postgresql)")
        }
        let executable = binaries.appendingPathComponent(tool)
        let outcome = asPostgresUser
            ? try await ProcessRunner.run(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "postgres", "--", executable.path] + arguments)
            : try await ProcessRunner.run(executable, arguments)
        guard outcome.status == 0 else {
            let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)).map { "; server log: " + $0.suffix(600) } ?? ""
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.standardError.prefix(600))\(log)")
        }
        return outcome.standardOutput
    }

    /// A PostgreSQL fixture failure.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String

        /// A failure saying `description`.
        package init(description: String) {
            self.description = description
        }
    }
}
