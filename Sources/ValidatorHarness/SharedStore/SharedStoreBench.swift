import Foundation
import Logging
import SharedStore
import SignalForwarding
import TestFixtures

/// What the shared store adds to an upload, on a private PostgreSQL cluster on this machine
/// (commits synced, as in production): each upload reads its project's photos (`photos(in:)`) and
/// remembers itself with its answer and its signal in one transaction (`remember` under the
/// project's lock, with `SharedOutbox.recording`), as the daemon does with `store.url` set. Prints the median and p90 of each and of both, per
/// upload, one at a time and with uploads in flight, over loopback TCP and the Unix socket.
package struct SharedStoreBench: Sendable {
    /// Uploads timed per case.
    package let uploads: Int
    /// Bytes of each stored fingerprint (an ordinary photo's encoded fingerprint is tens of KB).
    package let fingerprintBytes: Int
    /// Photos already kept in the project each upload goes to (the duplicate check keeps 64).
    package let photosPerProject: Int
    /// Uploads in flight in the concurrent case.
    package let concurrency: Int

    /// A bench from its parts.
    package init(uploads: Int, fingerprintBytes: Int, photosPerProject: Int, concurrency: Int) {
        self.uploads = uploads
        self.fingerprintBytes = fingerprintBytes
        self.photosPerProject = photosPerProject
        self.concurrency = concurrency
    }

    /// Runs every case, printing a line for each.
    package func run(print: @Sendable (String) -> Void) async throws {
        print("shared store bench: \(uploads) uploads a case, fingerprints of \(fingerprintBytes) bytes, projects holding \(photosPerProject) photos, fsync on")
        for tcp in [true, false] {
            let cluster = try PostgresCluster(tcpPort: tcp ? try TemporalDevServer.freePort() : nil, durable: true)
            do {
                try await cluster.start()
                try await measure(url: try await cluster.createDatabase(), transport: tcp ? "loopback TCP" : "Unix socket", print: print)
                await cluster.destroy()
            } catch {
                await cluster.destroy()
                throw error
            }
        }
    }

    private func measure(url: String, transport: String, print: @Sendable (String) -> Void) async throws {
        var logger = Logger(label: "store-bench")
        logger.logLevel = .error
        let store = try SharedStore(settings: SharedStoreSettings(url: url, poolSize: max(4, concurrency), tls: .disable), logger: logger)
        let memory = SharedProjectMemory<[UInt8]>(
            store: store, limits: .init(retention: 86_400, photosPerProject: max(64, photosPerProject), totalBytes: Int.max / 2), logger: logger,
            decode: { $0 }, cost: { $0.count }
        )
        var generator = SplitMix64(state: 49)
        let fingerprintBytes = fingerprintBytes
        func fingerprint() -> [UInt8] { (0..<fingerprintBytes).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            defer { group.cancelAll() }
            guard try await poll(within: .seconds(30), until: { store.readiness == .ready }) else {
                throw PostgresCluster.Failure(description: "the store did not become ready: \(store.readiness)")
            }
            // Projects filled beforehand, each upload to one of them, a new photo each time.
            let projects = max(8, concurrency * 2)
            for project in 0..<projects {
                for photo in 0..<photosPerProject {
                    _ = try await memory.remember(fingerprint(), encoded: fingerprint(), photoID: "seed-\(photo)", in: "project-\(project)",
                                                  comparedUpTo: UInt64.max, compare: { _ in nil })
                }
            }
            // The floor on this machine now: one round trip (SELECT 1) on a pooled connection.
            var floor: [Duration] = []
            for _ in 0..<uploads {
                let start = ContinuousClock.now
                if let why = await store.check() { throw PostgresCluster.Failure(description: why) }
                floor.append(ContinuousClock.now - start)
            }
            print("\(transport), floor (one SELECT 1): median \(Self.ms(Self.percentile(floor, 0.5))) p90 \(Self.ms(Self.percentile(floor, 0.9)))")
            let payloads = (0..<uploads).map { _ in fingerprint() }
            for inFlight in [1, concurrency] {
                let timings = try await time(memory, payloads: payloads, projects: projects, inFlight: inFlight, round: inFlight)
                print("\(transport), \(inFlight) in flight: " + [("read project", timings.map(\.read)), ("remember", timings.map(\.remember)),
                                                                 ("both", timings.map { $0.read + $0.remember })]
                    .map { "\($0.0) median \(Self.ms(Self.percentile($0.1, 0.5))) p90 \(Self.ms(Self.percentile($0.1, 0.9)))" }
                    .joined(separator: "; "))
            }
        }
    }

    private func time(_ memory: SharedProjectMemory<[UInt8]>, payloads: [[UInt8]], projects: Int, inFlight: Int,
                      round: Int) async throws -> [(read: Duration, remember: Duration)] {
        let clock = ContinuousClock()
        return try await withThrowingTaskGroup(of: [(read: Duration, remember: Duration)].self) { group in
            for lane in 0..<inFlight {
                group.addTask {
                    var timings: [(read: Duration, remember: Duration)] = []
                    for index in stride(from: lane, to: payloads.count, by: inFlight) {
                        let project = "project-\(index % projects)", photoID = "upload-\(round)-\(index)"
                        let start = clock.now
                        let (_, generation) = try await memory.photos(in: project, besides: photoID)
                        let read = clock.now
                        // As the daemon remembers a passed keyed upload: its answer and its signal
                        // commit in the transaction that remembers it.
                        let answer = IdempotentUpload(projectID: project, key: "key-\(photoID)", requestDigest: "digest", photoID: photoID,
                                                      answer: #"{"photo_id":"\#(photoID)","validation":{"passed":true}}"#)
                        let photo = PhotoData(photoID: photoID, storageKey: "projects/\(project)/\(photoID)", photoType: "room", note: nil)
                        let alongside = try SharedOutbox.recording(answer, promising: (workflowID: project, signalName: "photo_added", photo: photo))
                        _ = try await memory.remember(payloads[index], encoded: payloads[index], photoID: photoID, in: project,
                                                      comparedUpTo: generation, compare: { _ in nil }, alongside: alongside)
                        timings.append((read - start, clock.now - read))
                    }
                    return timings
                }
            }
            var all: [(read: Duration, remember: Duration)] = []
            for try await timings in group { all += timings }
            return all
        }
    }

    private static func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
        let sorted = values.sorted()
        return sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }

    private static func ms(_ duration: Duration) -> String {
        String(format: "%.2f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }
}
