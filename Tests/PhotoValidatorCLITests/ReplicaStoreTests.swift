import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestFixtures
import Testing

/// Three `photo-validator serve` processes sharing one private PostgreSQL cluster (`store.url`) and
/// one real Temporal dev server, answering over real HTTP on loopback with uploads spread among
/// them: what issue 49's replicas must agree on.
@Suite("Replicas sharing PostgreSQL agree", .integration, .serialized,
       .enabled(if: PostgresCluster.available && TemporalDevServer.available, "needs PostgreSQL's server and the temporal CLI: run scripts/setup --test"),
       .timeLimit(.minutes(10)))
struct ReplicaStoreTests {
    @Test("duplicates, racing pairs and keyed repeats agree across replicas; DELETE forgets on any; Temporal gets one photo_added per accepted photo")
    func replicasAgree() async throws {
        let photos = ReplicaPhotos.make(count: 85, seed: 1)
        try await withPeers(workflows: (0..<5).map { "agree-\($0)" }) { cluster, temporal in
            try await withReplicas(3, cluster: cluster, temporal: temporal) { replicas in
                let accepted = AcceptedPhotos()

                // 50 photos, each sent once to every replica (the first replica turning round-robin):
                // the first accepts it, the other two say duplicate_photo naming it.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for project in 0..<5 {
                        group.addTask {
                            for index in stride(from: project, to: 50, by: 5) {
                                let order = (0..<3).map { replicas[(index + $0) % 3] }
                                let first = try await order[0].upload(photos[index], project: "agree-\(project)")
                                #expect(first.status == 200 && first.passed, "photo \(index): \(first.text.prefix(300))")
                                let photoID = try #require(first.photoID)
                                accepted.add(photoID, in: "agree-\(project)")
                                for replica in order.dropFirst() {
                                    let again = try await replica.upload(photos[index], project: "agree-\(project)")
                                    #expect(again.failures == ["duplicate_photo"] && again.duplicateOf == photoID,
                                            "photo \(index) on replica \(replica.name): \(again.text.prefix(300))")
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }

                // 20 racing pairs: the same photo sent at once to two replicas passes on one only.
                for pair in 0..<20 {
                    let project = "agree-\(pair % 5)"
                    async let left = replicas[pair % 3].upload(photos[50 + pair], project: project)
                    async let right = replicas[(pair + 1) % 3].upload(photos[50 + pair], project: project)
                    let answers = try await [left, right]
                    let passed = answers.filter(\.passed)
                    #expect(passed.count == 1, "pair \(pair): \(answers.map { $0.text.prefix(200) })")
                    #expect(answers.filter { $0.failures == ["duplicate_photo"] }.count == 1, "pair \(pair)")
                    if let winner = passed.first?.photoID { accepted.add(winner, in: project) }
                }

                // Keyed uploads repeated on the other replicas, some of them racing: every repeat
                // replays the first answer byte for byte.
                for index in 70..<85 {
                    let project = "agree-\(index % 5)", key = "gw-\(index)"
                    let first: ReplicaAnswer
                    if index < 80 {
                        first = try await replicas[index % 3].upload(photos[index], project: project, key: key)
                    } else {
                        async let a = replicas[index % 3].upload(photos[index], project: project, key: key)
                        async let b = replicas[(index + 1) % 3].upload(photos[index], project: project, key: key)
                        let raced = try await [a, b]
                        #expect(raced[0].body == raced[1].body, "raced key \(key): \(raced.map { $0.text.prefix(200) })")
                        #expect(raced.filter { $0.replayed }.count == 1, "raced key \(key)")
                        first = raced.first { !$0.replayed } ?? raced[0]
                    }
                    #expect(first.status == 200 && first.passed, "\(first.text.prefix(300))")
                    if let photoID = first.photoID { accepted.add(photoID, in: project) }
                    for replica in replicas {
                        let again = try await replica.upload(photos[index], project: project, key: key)
                        #expect(again.replayed && again.body == first.body, "key \(key) on replica \(replica.name): \(again.text.prefix(300))")
                    }
                }

                // DELETE on a replica that did not accept the photo forgets it for every replica.
                let forgottenID = try #require(accepted.photos(in: "agree-0").first)
                let deleted = try await replicas[1].request("DELETE", "/api/v1/projects/agree-0/photos/\(forgottenID)")
                #expect(deleted.status == 200 && deleted.text.contains("\"forgotten\":true"), "\(deleted.text.suffix(200))")
                let again = try await replicas[2].upload(photos[0], project: "agree-0")
                #expect(again.passed, "\(again.text.prefix(300))")
                if let photoID = again.photoID { accepted.add(photoID, in: "agree-0") }

                // Every replica delivers, and each accepted photo reaches its workflow exactly once.
                let total = accepted.count
                #expect(total == 50 + 20 + 15 + 1)
                let delivered = try await poll(within: .seconds(60), every: .milliseconds(250)) {
                    try await replicas[0].outboxCounts()["delivered"] == total
                }
                let view = try await replicas[0].request("GET", "/v1/outbox").text.suffix(400)
                #expect(delivered, "\(view)")
                for replica in replicas {
                    let counts = try await replica.outboxCounts()
                    #expect(counts["delivered"] == total && counts["pending"] == 0 && counts["dead"] == 0, "\(replica.name): \(counts)")
                }
                for project in 0..<5 {
                    let signalled = try await temporal.signalledPhotoIDs(workflowID: "agree-\(project)")
                    #expect(signalled.sorted() == accepted.photos(in: "agree-\(project)").sorted(), "agree-\(project)")
                }
            }
        }
    }

    @Test("a replica killed with kill -9 while its signals are pending loses none: the others deliver them; dead letters are every replica's")
    func killedReplica() async throws {
        let photos = ReplicaPhotos.make(count: 12, seed: 2)
        try await withPeers(workflows: ["killed"]) { cluster, temporal in
            // Temporal is down while the photos are accepted, so only the shared outbox holds the promises.
            await temporal.stop()
            try await withReplicas(3, cluster: cluster, temporal: temporal) { replicas in
                var promised: [String] = []
                for photo in photos {
                    let answer = try await replicas[0].upload(photo, project: "killed")
                    #expect(answer.passed, "\(answer.text.prefix(300))")
                    if let photoID = answer.photoID { promised.append(photoID) }
                }
                #expect(try await replicas[1].outboxCounts()["pending"] == photos.count)
                replicas[0].daemon.send(SIGKILL)
                try await temporal.start()
                let delivered = try await poll(within: .seconds(90), every: .milliseconds(250)) {
                    try await replicas[1].outboxCounts()["delivered"] == photos.count
                }
                let view = try await replicas[2].request("GET", "/v1/outbox").text.suffix(400)
                #expect(delivered, "\(view)")
                let signalled = try await temporal.signalledPhotoIDs(workflowID: "killed")
                #expect(signalled.sorted() == promised.sorted())

                // A signal Temporal rejects (no such workflow) is a dead letter every replica lists,
                // and another replica can requeue it.
                let orphan = try await replicas[1].upload(photos[0], project: "no-such-workflow")
                let orphanID = try #require(orphan.photoID)
                let listed = try await poll(within: .seconds(30), every: .milliseconds(250)) {
                    try await replicas[2].request("GET", "/v1/outbox").text.contains(orphanID)
                }
                #expect(listed)
                let requeued = try await replicas[2].request("POST", "/v1/outbox/retry?photo_id=\(orphanID)")
                #expect(requeued.json?["requeued"] as? Int == 1, "\(requeued.text.suffix(200))")
                #expect(try await poll(within: .seconds(30), every: .milliseconds(250)) {
                    try await replicas[1].outboxCounts()["dead"] == 1
                })
            }
        }
    }

    @Test("PostgreSQL stopped for 10 s under load: 503 store_unavailable, never 500, no promised signal lost, and answers again when it returns")
    func databaseOutage() async throws {
        // Made as they are sent (each costs some milliseconds): at most this many.
        let photoCount = 400
        try await withPeers(workflows: ["outage"]) { cluster, temporal in
            try await withReplicas(3, cluster: cluster, temporal: temporal) { replicas in
                let log = OutageLog()
                let next = PhotoCounter()
                let returned = ReturnTime()
                // One client per replica, each upload a new photo, until each replica has
                // answered 200 at least 3 s after the database returned.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for replica in replicas {
                        group.addTask {
                            while let index = next.take(below: photoCount) {
                                let photo = ReplicaPhotos.photo(index, seed: 3)
                                let start = ContinuousClock.now
                                let answer = try await replica.upload(photo, project: "outage")
                                log.add(replica: replica.name, sent: start, answer: answer)
                                if let back = returned.instant, answer.status == 200, start > back + .seconds(3) { return }
                            }
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(3))
                        await cluster.stop()
                        try await Task.sleep(for: .seconds(10))
                        try await cluster.start()
                        returned.set(ContinuousClock.now)
                    }
                    try await group.waitForAll()
                }
                let answers = log.answers
                let back = try #require(returned.instant)
                #expect(answers.allSatisfy { $0.answer.status != 500 }, "\(answers.filter { $0.answer.status == 500 }.map { $0.answer.text.prefix(300) })")
                let refused = answers.filter { $0.answer.status == 503 }
                #expect(!refused.isEmpty, "no upload was refused while the database was down")
                #expect(refused.allSatisfy { $0.answer.code == "store_unavailable" && $0.answer.header("retry-after") != nil },
                        "\(refused.filter { $0.answer.code != "store_unavailable" }.map { $0.answer.text.prefix(300) })")
                // An upload the test client gave up on (status 0: no answer within its 60 s) is a hang.
                var unanswered: [String] = []
                for entry in answers where entry.answer.status != 200 && entry.answer.status != 503 {
                    unanswered.append("replica \(entry.replica): sent \(back - entry.sent) before PostgreSQL returned, status \(entry.answer.status) after \(entry.received - entry.sent)")
                }
                #expect(unanswered.isEmpty, "\(unanswered)")
                // How soon each replica answered 200 again once the database was back.
                for replica in replicas {
                    let first = answers.first { $0.replica == replica.name && $0.answer.status == 200 && $0.received > back }
                    let after = try #require(first).received - back
                    print("replica \(replica.name): first 200 \(after) after PostgreSQL returned; \(refused.filter { $0.replica == replica.name }.count) x 503 store_unavailable")
                }
                // Every passed photo answered 200 was promised, and reaches the workflow exactly once.
                let promised = answers.filter { $0.answer.status == 200 && $0.answer.passed }.compactMap(\.answer.photoID)
                let delivered = try await poll(within: .seconds(60), every: .milliseconds(250)) {
                    try await replicas[0].outboxCounts()["delivered"] == promised.count
                }
                let view = try await replicas[0].request("GET", "/v1/outbox").text.suffix(400)
                #expect(delivered, "\(view) against \(promised.count) promised")
                let signalled = try await temporal.signalledPhotoIDs(workflowID: "outage")
                #expect(signalled.sorted() == promised.sorted())
            }
        }
    }
}

// MARK: - The peers and the replicas

/// Runs a private PostgreSQL cluster and a Temporal dev server with `workflows` started for
/// `body`, then stops both.
private func withPeers(workflows: [String], _ body: @Sendable (PostgresCluster, TemporalDevServer) async throws -> Void) async throws {
    let temporal = try TemporalDevServer()
    try await temporal.start()
    do {
        for workflow in workflows { try await temporal.startWorkflow(id: workflow) }
        try await PostgresCluster.with { cluster in try await body(cluster, temporal) }
        await temporal.stop()
    } catch {
        await temporal.stop()
        throw error
    }
}

/// Runs `count` daemons sharing a new database of `cluster` and forwarding to `temporal`, each
/// with its own outbox file and quick retries, waits until every one is ready, runs `body`, then
/// stops them.
private func withReplicas(_ count: Int, cluster: PostgresCluster, temporal: TemporalDevServer,
                          _ body: @escaping @Sendable ([Replica]) async throws -> Void) async throws {
    let url = try await cluster.createDatabase()
    try await startReplicas(count, url: url, temporal: temporal, started: [], body)
}

private func startReplicas(_ count: Int, url: String, temporal: TemporalDevServer, started: [Replica],
                           _ body: @escaping @Sendable ([Replica]) async throws -> Void) async throws {
    guard started.count < count else {
        for replica in started {
            let ready = try await poll(within: .seconds(60), every: .milliseconds(100)) {
                (try? await replica.request("GET", "/readyz"))?.status == 200
            }
            let why = (try? await replica.request("GET", "/readyz"))?.text.suffix(300) ?? ""
            #expect(ready, "replica \(replica.name) is not ready: \(why)")
        }
        try await body(started)
        return
    }
    let name = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(started.count)))
    let arguments = ["--port", "0", "--workers", "2", "--decode-isolation", "none",
                     "--signal-target", "temporal", "--temporal-url", temporal.httpURL,
                     "--outbox", Fixtures.temporaryPath("outbox-\(name).sqlite"),
                     "--outbox-retry-initial-seconds", "0.2", "--outbox-retry-max-seconds", "1"]
    let environment = ["PHOTO_VALIDATOR_STORE_URL": url, "PHOTO_VALIDATOR_STORE_TLS": "disable"]
    _ = try await DaemonProcess.run(arguments, environment: environment) { daemon in
        try await startReplicas(count, url: url, temporal: temporal, started: started + [Replica(name: name, daemon: daemon, port: try daemon.port)], body)
    }
}

/// One daemon of the replicas.
private struct Replica: Sendable {
    /// `a`, `b` or `c`.
    let name: String
    let daemon: DaemonProcess
    let port: Int

    /// Uploads `photo` to `project` as an inspiration photo, with `key` as its Idempotency-Key.
    func upload(_ photo: [UInt8], project: String, key: String? = nil) async throws -> ReplicaAnswer {
        let form = MultipartBody(fields: [("photo_type", "inspiration")], file: ("photo.png", "image/png", photo))
        var headers = ["Content-Type: \(form.contentType)"]
        if let key { headers.append("Idempotency-Key: \(key)") }
        return try await request("POST", "/api/v1/projects/\(project)/photos", headers: headers, body: form.bytes)
    }

    /// Sends one request and reads the whole answer.
    func request(_ method: String, _ path: String, headers: [String] = [], body: [UInt8] = []) async throws -> ReplicaAnswer {
        let text = try await RawHTTP.request(port: port, method: method, path: path, headers: headers, body: body)
        return ReplicaAnswer(text: text)
    }

    /// `GET /v1/outbox`'s counts.
    func outboxCounts() async throws -> [String: Int] {
        let answer = try await request("GET", "/v1/outbox")
        return (answer.json?["counts"] as? [String: Any])?.compactMapValues { $0 as? Int } ?? [:]
    }
}

/// An HTTP answer as received.
private struct ReplicaAnswer: Sendable {
    /// The whole answer, head and body.
    let text: String
    /// When it was read.
    let received = ContinuousClock.now

    var status: Int { Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0 }
    var body: String { text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? "" }
    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] }
    var validation: [String: Any]? { json?["validation"] as? [String: Any] }
    var passed: Bool { validation?["passed"] as? Bool == true }
    var failures: [String] { validation?["failures"] as? [String] ?? [] }
    var duplicateOf: String? { (validation?["details"] as? [String: Any])?["duplicate_of"] as? String }
    var photoID: String? { json?["photo_id"] as? String }
    var code: String? { json?["error"] as? String }
    var replayed: Bool { header("idempotent-replayed") == "true" }

    /// The value of the header `name` (lower case), if present.
    func header(_ name: String) -> String? {
        let head = text.range(of: "\r\n\r\n").map { text[..<$0.lowerBound] } ?? text[...]
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}

/// Distinct photos that pass as inspiration photos and are no duplicates of each other: grey
/// rectangles at random places and levels on mid-grey, 480x400, sharp-edged.
private enum ReplicaPhotos {
    /// Photos `0..<count` of the series `seed`.
    static func make(count: Int, seed: UInt64) -> [[UInt8]] {
        (0..<count).map { photo($0, seed: seed) }
    }

    /// Photo `index` of the series `seed`.
    static func photo(_ index: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(state: seed &* 1_000_003 &+ UInt64(index))
        let width = 480, height = 400
        var plane = [UInt8](repeating: 128, count: width * height)
        for _ in 0..<30 {
            let x0 = Int.random(in: 0..<(width - 40), using: &generator), y0 = Int.random(in: 0..<(height - 40), using: &generator)
            let x1 = min(width, x0 + Int.random(in: 20..<160, using: &generator)), y1 = min(height, y0 + Int.random(in: 20..<160, using: &generator))
            let level = UInt8.random(in: 30...220, using: &generator)
            for y in y0..<y1 { for x in x0..<x1 { plane[y * width + x] = level } }
        }
        return SyntheticPNG.grey(width: width, height: height) { x, y in plane[y * width + x] }
    }
}

/// The photo ids accepted, by project, as the test saw them.
private final class AcceptedPhotos: Sendable {
    private let byProject = Mutex<[String: [String]]>([:])

    func add(_ photoID: String, in project: String) { byProject.withLock { $0[project, default: []].append(photoID) } }
    func photos(in project: String) -> [String] { byProject.withLock { $0[project] ?? [] } }
    var count: Int { byProject.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}

/// The next photo an outage client sends.
private final class PhotoCounter: Sendable {
    private let next = Mutex(0)

    func take(below limit: Int) -> Int? {
        next.withLock { next in
            guard next < limit else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// When the database came back.
private final class ReturnTime: Sendable {
    private let value = Mutex<ContinuousClock.Instant?>(nil)

    func set(_ instant: ContinuousClock.Instant) { value.withLock { $0 = instant } }
    var instant: ContinuousClock.Instant? { value.withLock { $0 } }
}

/// Every answer of the outage test, with its replica and when it was sent.
private final class OutageLog: Sendable {
    struct Entry: Sendable {
        let replica: String
        let sent: ContinuousClock.Instant
        let answer: ReplicaAnswer
        var received: ContinuousClock.Instant { answer.received }
    }

    private let entries = Mutex<[Entry]>([])

    func add(replica: String, sent: ContinuousClock.Instant, answer: ReplicaAnswer) {
        entries.withLock { $0.append(Entry(replica: replica, sent: sent, answer: answer)) }
    }

    var answers: [Entry] { entries.withLock { $0 } }
}
