import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import PhotoValidatorServer
import TestFixtures
import Testing
import ValidationThreads

@Suite("Limits, authentication and back-pressure", .timeLimit(.minutes(10)))
struct LimitsTests {
    @Test("a body declared over the limit is refused with 413 before it is read")
    func declaredTooLarge() async throws {
        try await withLiveApp({ $0.bodyLimit = 1 << 20 }) { client, _ in
            // A real socket: headers promise 50 MiB, only a few bytes follow, and the answer
            // must come anyway, so the daemon never waited for (or buffered) the body.
            let port = try #require(client.port)
            let answer = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: 52428800\r\n\r\n" + String(repeating: "x", count: 1024))
            #expect(answer.hasPrefix("HTTP/1.1 413"))
            #expect(answer.contains("\"error\":\"file_too_large\""))
            #expect(answer.contains("Photo exceeds 1 MB limit"))
        }
    }

    @Test("a client waiting on Expect: 100-continue is asked for its photo and answered; one refused before its body is not")
    func expectContinue() async throws {
        try await withLiveApp({ $0.bodyLimit = 1 << 20 }) { client, _ in
            let port = try #require(client.port)
            let photo = Array(try testdataBytes("photos/cups.jpg").readableBytesView)
            // Reads give up after 30 s: without an interim answer the head read comes back empty.
            let socket = try await RawHTTP.connect(port: port, timeout: 30)
            defer { close(socket) }
            try await RawHTTP.write(socket, RawHTTP.head(method: "POST", path: "/v1/validate?photo_type=room",
                                                         headers: ["Content-Type: image/jpeg", "Expect: 100-continue"], length: photo.count))
            let interim = try await RawHTTP.readHead(socket)
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim)")
            try await RawHTTP.write(socket, photo)
            let answer = try await RawHTTP.readAll(socket)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(200))")
            #expect(answer.contains("\"passed\":true"))

            // Over the limit: the final answer comes instead of 100 Continue, and no body is needed.
            let refused = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nExpect: 100-continue\r\nContent-Length: 52428800\r\n\r\n",
                                                          timeout: 30)
            #expect(refused.hasPrefix("HTTP/1.1 413"), "\(refused.prefix(200))")
        }
    }

    @Test("a chunked body that grows past the limit is refused with 413")
    func streamedTooLarge() async throws {
        try await withLiveApp({ $0.bodyLimit = 1 << 20 }) { client, _ in
            let response = try await client.execute(uri: "/v1/validate", method: .post, headers: [.transferEncoding: "chunked"],
                                                    body: ByteBuffer(repeating: 0xAB, count: (1 << 20) + 10))
            try expectError(response, status: .contentTooLarge, code: "file_too_large")
        }
    }

    @Test("ten trickling uploads hold no validation slot: with one worker and no queue a normal upload is still answered")
    func tricklingUploadsLockNobodyOut() async throws {
        // The trickling bodies stay open for the whole test: neither the rate rule nor the timeout cuts them.
        try await withLiveApp({ $0.workers = 1; $0.queueLimit = 0; $0.bodyRateGrace = .seconds(120); $0.requestTimeout = .seconds(120) }) { client, _ in
            let port = try #require(client.port)
            var holders: [Int32] = []
            defer { holders.forEach { close($0) } }
            for _ in 0..<10 {
                let holder = try await RawHTTP.connect(port: port)
                holders.append(holder)
                try await RawHTTP.write(holder, Array("POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc".utf8))
            }
            // Every trickling request must be admitted (its body's memory reserved) before the normal upload takes the
            // only place: a head parsed late, under a loaded run, while that place is taken is rightly made to wait and
            // then refused `overloaded`, which is admission doing its job, not a trickle holding a slot.
            let admitted = try await poll(within: .seconds(60)) {
                String(buffer: try await client.execute(uri: "/metrics", method: .get).body).contains("photo_validator_upload_memory_reserved_bytes 1000000")
            }
            try #require(admitted, "the ten trickling requests were never all admitted")
            let response = try await client.execute(uri: "/v1/validate", method: .post, body: try testdataBytes("photos/small-coffee.png"))
            #expect(response.status == .ok)
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(!metrics.contains("photo_validator_rejected_total{reason=\"overloaded\"}"))
        }
    }

    @Test("when upload memory is full, an upload waits unread, then is refused with 503 and Retry-After")
    func uploadMemoryFull() async throws {
        // The holder's body must not be cut off by the rate rule or the timeout while the test runs.
        try await withLiveApp({
            $0.uploadMemoryBytes = 1 << 20; $0.admissionWait = .milliseconds(300)
            $0.bodyRateGrace = .seconds(120); $0.requestTimeout = .seconds(120)
        }) { client, _ in
            let port = try #require(client.port)
            // This body is promised to fill the budget and never finishes arriving.
            let holder = try await RawHTTP.connect(port: port)
            defer { close(holder) }
            try await RawHTTP.write(holder, Array("POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nabc".utf8))
            let reserved = try await poll {
                String(buffer: try await client.execute(uri: "/metrics", method: .get).body).contains("photo_validator_upload_memory_reserved_bytes 1000000")
            }
            #expect(reserved)
            // Nothing of this body is sent: the answer can only come from admission control.
            let answer = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 500000\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 503"))
            #expect(answer.contains("\"error\":\"overloaded\""))
            #expect(answer.contains("upload memory full"))
            #expect(answer.lowercased().contains("retry-after: 1"))
        }
    }

    @Test("a connection that trickles its request head is closed at the header deadline; an idle keep-alive one is not")
    func headerDeadline() async throws {
        try await withLiveApp({ $0.headerTimeout = .milliseconds(400) }) { client, _ in
            let port = try #require(client.port)
            // Reads give up after 30 s: an answer-less end well before that is the server closing.
            let socket = try await RawHTTP.connect(port: port, timeout: 30)
            defer { close(socket) }
            let start = ContinuousClock.now
            for piece in ["POST /v1/val", "idate HTTP/1.1\r\n", "Host: x\r\n", "X-Slow: 1\r\n"] {
                try? await RawHTTP.write(socket, Array(piece.utf8))
                try await Task.sleep(for: .milliseconds(150))
            }
            // The server closes the connection without an answer: reading ends.
            let answer = try await RawHTTP.readAll(socket)
            let elapsed = ContinuousClock.now - start
            #expect(answer.isEmpty, "\(answer.prefix(200))")
            #expect(elapsed < .seconds(20), "the connection was not closed by the server")
            // The test client's own keep-alive connection, idle all this time, is still served.
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test("a body that arrives slower than the minimum rate is answered 408 after the grace period")
    func bodyBelowMinimumRate() async throws {
        try await withLiveApp({ $0.bodyRateGrace = .milliseconds(300); $0.minimumBodyRate = 64 << 10 }) { client, _ in
            let port = try #require(client.port)
            let answer = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\npartial",
                                                          timeout: 60)
            #expect(answer.hasPrefix("HTTP/1.1 408"))
            #expect(answer.contains("\"error\":\"body_too_slow\""))
            #expect(answer.contains("too slow for the rest to arrive within the request timeout"))
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_rejected_total{reason=\"slow_body\"} 1"))
        }
    }

    @Test("a body that stops arriving is answered 408, and the daemon keeps serving")
    func slowBody() async throws {
        try await withLiveApp({ $0.requestTimeout = .milliseconds(300) }) { client, _ in
            let port = try #require(client.port)
            // Keep-alive on purpose: after the 408 the server itself reads what is left of the body.
            let answer = try await RawHTTP.firstResponse(port: port, sending: "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\npartial",
                                                          timeout: 60)
            #expect(answer.hasPrefix("HTTP/1.1 408"))
            #expect(answer.contains("\"error\":\"request_timeout\""))
            // A request without a body: the 300 ms request timeout would make an upload's answer
            // depend on how loaded the machine running the tests is.
            let after = try await client.execute(uri: "/healthz", method: .get)
            #expect(after.status == .ok)
        }
    }

    @Test("a body under the minimum rate that will still finish within the request timeout is accepted")
    func slowButFinishing() async throws {
        // A generous timeout: the body is under the minimum rate however busy the machine is, and
        // at its own rate it always finishes well within 120 s.
        try await withLiveApp({ $0.bodyRateGrace = .milliseconds(300); $0.minimumBodyRate = 1 << 20; $0.requestTimeout = .seconds(120) }) { client, _ in
            let port = try #require(client.port)
            let photo = Array(try Data(contentsOf: Fixtures.testdataFile("photos/small-coffee.png")))
            let socket = try await RawHTTP.connect(port: port)
            defer { close(socket) }
            try await RawHTTP.write(socket, RawHTTP.head(method: "POST", path: "/v1/validate?photo_type=inspiration", length: photo.count))
            // At most about 400 KB/s, under the 1 MiB/s minimum.
            let piece = photo.count / 5 + 1
            for start in stride(from: 0, to: photo.count, by: piece) {
                try await RawHTTP.write(socket, Array(photo[start..<min(start + piece, photo.count)]))
                try await Task.sleep(for: .milliseconds(250))
            }
            let answer = try await RawHTTP.readAll(socket)
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
        }
    }

    @Test("with a token configured, requests without it get 401 and /healthz stays open")
    func bearerToken() async throws {
        try await withLiveApp({ $0.authToken = "s3cret-token" }) { client, _ in
            try expectError(try await client.execute(uri: "/v1/validate", method: .post, body: try testdataBytes("photos/cups.jpg")), status: .unauthorized, code: "unauthorized")
            try expectError(try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer wrong"]), status: .unauthorized, code: "unauthorized")
            try expectError(try await client.execute(uri: "/readyz", method: .get, headers: [.authorization: "Basic czNjcmV0LXRva2Vu"]), status: .unauthorized, code: "unauthorized")
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let authorized = try await client.execute(uri: "/v1/validate", method: .post, headers: [.authorization: "Bearer s3cret-token"], body: try testdataBytes("photos/cups.jpg"))
            #expect(authorized.status == .ok)
        }
    }

    @Test("overload is answered 503 with Retry-After instead of queueing without bound")
    func overload() async throws {
        try await withLiveApp({ $0.workers = 1; $0.queueLimit = 0; $0.retryAfterSeconds = 2 }) { client, _ in
            let port = try #require(client.port)
            let body = try testdataBytes("photos/outdoor-dandelions-bokeh.jpg")
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120))) { client in
                            let response = try await client.post("/v1/validate", body: body)
                            return (response.status.code, response.headers[.retryAfter])
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 8)
            #expect(statuses.allSatisfy { $0.0 == 200 || $0.0 == 503 }, "\(statuses)")
            #expect(statuses.contains { $0.0 == 200 })
            let refused = statuses.filter { $0.0 == 503 }
            #expect(!refused.isEmpty, "one worker and no queue must refuse some of 8 concurrent uploads")
            #expect(refused.allSatisfy { $0.1 == "2" })
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_rejected_total{reason=\"overloaded\"} \(refused.count)"))
        }
    }

    @Test("projects take turns: a second project's upload runs within one job of a busy project's backlog")
    func projectsTakeTurns() async throws {
        // The held jobs must not go overdue (30 s by default) on a loaded machine: a stand-in thread would run the queue.
        try await withLiveApp({ $0.workers = 1; $0.spareWorkers = 0; $0.queueLimit = 16; $0.validationTimeout = .seconds(600) }) { client, app in
            let port = try #require(client.port)
            let pool = app.service.pool
            // The uploads come from 127.0.0.1 without a token: one caller (its /24), a sub-queue per project.
            let caller = "address:127.0.0.0/24"
            let gate = Gate(), probeGate = Gate()
            // Whatever happens below, the worker is let go (a test that fails must not hold it).
            defer {
                gate.open(1)
                probeGate.open(1)
            }
            let order = CompletionLog(), probe = CompletionLog()
            // The busy project's first job holds the only worker until every job is queued.
            // Running, not only admitted: the pool's threads start with its service, beside the
            // server's, so under load they may not run yet; every count of `queued` below would then
            // include the holder, and the gate could open before the holder ran, which then returns
            // at once and hands the thread on before the uploads' jobs have all arrived.
            let started = Mutex(false)
            async let holder: Void = pool.withSlot(for: FairKey(caller: caller, project: "busy")) { slot in
                try await slot.run { started.withLock { $0 = true }; gate.wait() }
            }
            // Bounded: an upload that failed under load must fail the test, not leave it waiting.
            try #require(try await poll(within: .seconds(180)) { started.withLock { $0 } }, "the holding job never started")
            try await withThrowingTaskGroup(of: Void.self) { group in
                // A failed #require below throws out of this closure, and the group then waits for
                // its children, the probe among them: the gates must open before that wait.
                defer {
                    gate.open(1)
                    probeGate.open(1)
                }
                func send(_ project: String) {
                    group.addTask {
                        let (status, _) = try await uploadSmallPhoto(port: port, project: project)
                        order.names.withLock { $0.append("\(project) \(status)") }
                    }
                }
                for _ in 0..<3 { send("busy") }
                // Bounded: an upload that failed under load must fail the test, not leave it waiting.
                try #require(try await poll(within: .seconds(180)) { pool.queued >= 3 }, "pool.queued never reached 3")
                send("other")
                // Bounded: an upload that failed under load must fail the test, not leave it waiting.
                try #require(try await poll(within: .seconds(180)) { pool.queued >= 4 }, "pool.queued never reached 4")
                // A third project's job, queued last, has the third turn: while it holds the worker, the
                // uploads answered are exactly those whose jobs ran before it. Answers alone would not
                // tell: they reach this task in whatever order its threads get to them, not the order
                // the jobs ran in (on a loaded machine a busy upload that ran later was answered first).
                group.addTask {
                    try await pool.withSlot(for: FairKey(caller: caller, project: "probe")) { slot in
                        try await slot.run {
                            probe.names.withLock { $0.append("running") }
                            probeGate.wait()
                        }
                    }
                }
                try #require(try await poll(within: .seconds(180)) { pool.queued >= 5 }, "pool.queued never reached 5")
                gate.open(1)
                try #require(try await poll(within: .seconds(180)) { probe.names.withLock { !$0.isEmpty } }, "the probe never ran")
                try #require(try await poll(within: .seconds(180)) { order.names.withLock { $0.count >= 2 } }, "the jobs run before the probe were never answered")
                let beforeProbe = order.names.withLock { $0 }
                let waiting = pool.queued
                probeGate.open(1)
                // Two jobs ran before the probe: the busy project's first and the other project's
                // (FIFO would run the busy project's backlog first, the other's upload fourth).
                #expect(beforeProbe.sorted() == ["busy 200", "other 200"], "the other project waited behind the busy one's backlog: \(beforeProbe) answered before the probe's turn")
                #expect(waiting == 2, "the busy project's last two uploads must still wait while the probe runs: \(waiting) waiting")
                try await group.waitForAll()
            }
            try await holder
            let served = order.names.withLock { $0 }
            #expect(served.count == 4 && served.allSatisfy { $0.hasSuffix(" 200") }, "\(served)")
        }
    }
}

extension LimitsTests {
    @Test("a project whose jobs hold every thread does not hold up another: its upload runs on the spare thread and is answered while they still run")
    func spareThreadServesAnotherProject() async throws {
        try await withLiveApp({ $0.workers = 1; $0.spareWorkers = 1; $0.queueLimit = 16 }) { client, app in
            let port = try #require(client.port)
            let pool = app.service.pool
            let gate = Gate()
            // Whatever happens below, the worker is let go (a test that fails must not hold it).
            defer { gate.open(1) }
            // A long decode of project "busy" holds the only regular thread.
            async let holder: Void = pool.withSlot(for: FairKey(caller: "address:127.0.0.0/24", project: "busy")) { slot in try await slot.run { gate.wait() } }
            // Bounded: an upload that failed under load must fail the test, not leave it waiting.
            try #require(try await poll(within: .seconds(180)) { pool.inFlight >= 1 }, "pool.inFlight never reached 1")
            // The busy project's next upload may not take the spare: it waits for the held thread.
            async let busyUpload = uploadSmallPhoto(port: port, project: "busy")
            try #require(try await poll(within: .seconds(180)) { pool.queued >= 1 }, "the busy project's second upload was never queued")
            // Another project's upload is answered while both of those are still held.
            let (status, _) = try await uploadSmallPhoto(port: port, project: "other")
            #expect(status == 200)
            #expect(pool.queued == 1, "the busy project's second upload must still be waiting for the held thread")
            gate.open(1)
            try await holder
            let (busyStatus, _) = try await busyUpload
            #expect(busyStatus == 200)
        }
    }

    @Test("a full pool still takes a caller's project holding fewer places: the busiest project's waiting upload is answered 503 overloaded, not 500")
    func fullPoolEvictsBusiest() async throws {
        try await withLiveApp({ $0.workers = 1; $0.spareWorkers = 0; $0.queueLimit = 1; $0.retryAfterSeconds = 3 }) { client, app in
            let port = try #require(client.port)
            let pool = app.service.pool
            let gate = Gate()
            // Whatever happens below, the worker is let go (a test that fails must not hold it).
            defer { gate.open(1) }
            let order = CompletionLog()
            async let holder: Void = pool.withSlot(for: FairKey(caller: "address:127.0.0.0/24", project: "busy")) { slot in try await slot.run { gate.wait() } }
            // Bounded: an upload that failed under load must fail the test, not leave it waiting.
            try #require(try await poll(within: .seconds(180)) { pool.inFlight >= 1 }, "pool.inFlight never reached 1")
            try await withThrowingTaskGroup(of: Void.self) { group in
                func send(_ project: String) {
                    group.addTask {
                        let (status, retry) = try await uploadSmallPhoto(port: port, project: project)
                        order.names.withLock { $0.append("\(project) \(status) \(retry)") }
                    }
                }
                send("busy")
                // Bounded: an upload that failed under load must fail the test, not leave it waiting.
                try #require(try await poll(within: .seconds(180)) { pool.queued >= 1 }, "pool.queued never reached 1")
                send("other")
                try #require(try await poll(within: .seconds(180)) { order.names.withLock { !$0.isEmpty } }, "no upload was answered")
                gate.open(1)
                try await group.waitForAll()
            }
            try await holder
            let served = order.names.withLock { $0 }
            #expect(served == ["busy 503 3", "other 200 -"], "\(served)")
        }
    }
}

extension LimitsTests {
    /// How the two callers of `newProjectPerUploadCannotCrowdOut` tell themselves apart.
    enum CallerKind: String, CaseIterable, Sendable {
        /// Each with a named bearer token of its own (`auth.tokens`).
        case namedToken
        /// Each with the gateway's user header (`limits.client_header`).
        case clientHeader
    }

    @Test("a caller with a new project per upload fills the pool: another caller's upload is admitted, not 503", arguments: CallerKind.allCases)
    func newProjectPerUploadCannotCrowdOut(_ kind: CallerKind) async throws {
        try await withLiveApp({ configuration in
            configuration.workers = 1
            configuration.spareWorkers = 0
            configuration.queueLimit = 3
            // The held job must not go overdue (30 s by default) on a loaded machine: its stand-in would run the queue.
            configuration.validationTimeout = .seconds(600)
            switch kind {
            case .namedToken: configuration.callerTokens = [CallerToken(name: "mallory", token: "tok-m"), CallerToken(name: "alice", token: "tok-a")]
            case .clientHeader: configuration.clientHeader = "X-User-Id"
            }
        }) { client, app in
            let port = try #require(client.port)
            let pool = app.service.pool
            let gate = Gate()
            // Whatever happens below, the worker is let go (a test that fails must not hold it).
            defer { gate.open(1) }
            func headers(_ user: String) -> HTTPFields {
                switch kind {
                case .namedToken: [.authorization: "Bearer tok-\(user.prefix(1))"]
                case .clientHeader: [HTTPField.Name("X-User-Id")!: user]
                }
            }
            let flooder = kind == .namedToken ? "token:mallory" : "header:mallory"
            let order = CompletionLog()
            // The flooder's first job holds the only worker while its uploads, each to a new project, fill the queue.
            async let holder: Void = pool.withSlot(for: FairKey(caller: flooder, project: "flood-0")) { slot in try await slot.run { gate.wait() } }
            try #require(try await poll(within: .seconds(180)) { pool.inFlight >= 1 }, "pool.inFlight never reached 1")
            try await withThrowingTaskGroup(of: Void.self) { group in
                func send(_ user: String, _ project: String) {
                    let extra = headers(user)
                    group.addTask {
                        let (status, _) = try await uploadSmallPhoto(port: port, project: project, extra: extra)
                        order.names.withLock { $0.append("\(project) \(status)") }
                    }
                }
                for index in 1...3 {
                    send("mallory", "flood-\(index)")
                    // Bounded: an upload that failed under load must fail the test, not leave it waiting.
                    try #require(try await poll(within: .seconds(180)) { pool.queued >= index }, "pool.queued never reached \(index)")
                }
                #expect(pool.inFlight(of: flooder) == 4)
                send("alice", "home")
                try #require(try await poll(within: .seconds(180)) { order.names.withLock { !$0.isEmpty } }, "no upload was answered")
                gate.open(1)
                try await group.waitForAll()
            }
            try await holder
            let served = order.names.withLock { $0 }
            // The flooder's newest upload gave way and the good caller's was served (a queue per
            // project refused it 503). The order of service is checked where it is exact, in
            // FairAdmissionTests and ValidationThreadPoolTests: here answers are recorded as the
            // client tasks get to them, which on a loaded machine can lag a small photo's decode.
            #expect(served.first == "flood-3 503", "\(served)")
            #expect(served.sorted() == ["flood-1 200", "flood-2 200", "flood-3 503", "home 200"], "\(served)")
        }
    }

    @Test("a caller the full pool would refuse whatever its project waits unread for the admission wait, then is answered 503 before its body is read")
    func fullPoolRefusesBeforeBody() async throws {
        // The held job must not go overdue (a stand-in thread would run the waiting one) however slow the polls below.
        try await withLiveApp({ $0.workers = 1; $0.spareWorkers = 0; $0.queueLimit = 1; $0.retryAfterSeconds = 2; $0.admissionWait = .milliseconds(300); $0.validationTimeout = .seconds(600) }) { client, app in
            let port = try #require(client.port)
            let pool = app.service.pool
            let gate = Gate()
            // Whatever happens below, the worker is let go (a test that fails must not hold it).
            defer { gate.open(2) }
            // 127.0.0.1 (the caller of the raw request below) holds the thread and the queue, one project each.
            // Running, not only admitted: else the job below could take the thread first and end.
            let started = Mutex(false)
            async let running: Void = pool.withSlot(for: FairKey(caller: "address:127.0.0.0/24", project: "a")) { slot in
                try await slot.run { started.withLock { $0 = true }; gate.wait() }
            }
            try #require(try await poll(within: .seconds(180)) { started.withLock { $0 } }, "the holding job never started")
            async let waiting: Void = pool.withSlot(for: FairKey(caller: "address:127.0.0.0/24", project: "b")) { slot in try await slot.run {} }
            try #require(try await poll(within: .seconds(180)) { pool.queued >= 1 }, "pool.queued never reached 1")
            #expect(pool.refusesNow(caller: "address:127.0.0.0/24") && !pool.refusesNow(caller: "address:10.0.0.9"))
            // Headers only: without the early refusal the daemon would wait for the body and this read would time out.
            let answer = try await RawHTTP.firstResponse(port: port, sending: "POST /api/v1/projects/c/photos HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 500000\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(300))")
            #expect(answer.contains("\"error\":\"overloaded\"") && answer.lowercased().contains("retry-after: 2"))
            gate.open(2)
            try await running
            try await waiting
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("photo_validator_rejected_total{reason=\"overloaded\"} 1"))
        }
    }

    @Test("a caller the full pool holds back is let through when a place frees: admitted and answered 200, not 503")
    func heldRequestGoesOnWhenAPlaceFrees() async throws {
        // The held job must not go overdue (a stand-in thread would run the waiting one) however slow the polls below.
        try await withLiveApp({ $0.workers = 1; $0.spareWorkers = 0; $0.queueLimit = 1; $0.admissionWait = .seconds(120); $0.validationTimeout = .seconds(600) }) { client, app in
            let port = try #require(client.port)
            let pool = app.service.pool
            let gate = Gate()
            // Whatever happens below, the worker is let go (a test that fails must not hold it).
            defer { gate.open(2) }
            // Running, not only admitted: else the job below could take the thread first and end.
            let started = Mutex(false)
            async let running: Void = pool.withSlot(for: FairKey(caller: "address:127.0.0.0/24", project: "a")) { slot in
                try await slot.run { started.withLock { $0 = true }; gate.wait() }
            }
            try #require(try await poll(within: .seconds(180)) { started.withLock { $0 } }, "the holding job never started")
            async let waiting: Void = pool.withSlot(for: FairKey(caller: "address:127.0.0.0/24", project: "b")) { slot in try await slot.run {} }
            try #require(try await poll(within: .seconds(180)) { pool.queued >= 1 }, "pool.queued never reached 1")
            #expect(pool.refusesNow(caller: "address:127.0.0.0/24"))
            let opened = Mutex(false)
            async let upload: (UInt, Bool) = {
                let (status, _) = try await uploadSmallPhoto(port: port, project: "c")
                return (status, opened.withLock { $0 })
            }()
            // Time for the upload to reach the daemon and be held; refused at once (as before the
            // hold), it would be answered 503 before the gate opens.
            try await Task.sleep(for: .seconds(1))
            opened.withLock { $0 = true }
            gate.open(2)
            try await running
            try await waiting
            let (status, answeredAfterGate) = try await upload
            #expect(status == 200 && answeredAfterGate, "status \(status), answered after the gate opened: \(answeredAfterGate)")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(!metrics.contains("photo_validator_rejected_total{reason=\"overloaded\"}"))
        }
    }

    @Test("named tokens are accepted beside the shared one, a prefix or extension of one is 401, and named tokens alone turn authentication on")
    func namedTokens() async throws {
        try await withLiveApp({ $0.authToken = "shared-token"; $0.callerTokens = [CallerToken(name: "batch", token: "batch-token")] }) { client, _ in
            for token in ["shared-token", "batch-token"] {
                let response = try await client.execute(uri: "/v1/validate", method: .post, headers: [.authorization: "Bearer \(token)"], body: try testdataBytes("photos/cups.jpg"))
                #expect(response.status == .ok, "\(token)")
            }
            try expectError(try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer batch"]), status: .unauthorized, code: "unauthorized")
            try expectError(try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer batch-token2"]), status: .unauthorized, code: "unauthorized")
        }
        try await withLiveApp({ $0.callerTokens = [CallerToken(name: "batch", token: "batch-token")] }) { client, _ in
            try expectError(try await client.execute(uri: "/v1/validate", method: .post, body: try testdataBytes("photos/cups.jpg")), status: .unauthorized, code: "unauthorized")
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }
}

/// Uploads a small photo to `project` on a connection of its own, with `extra` headers, waiting up
/// to 120 s for the answer (HummingbirdTesting's default of 15 s is short for a queue held on
/// purpose); returns the status and the Retry-After header ("-" without one).
private func uploadSmallPhoto(port: Int, project: String, extra: HTTPFields = [:]) async throws -> (UInt, String) {
    var form = MultipartBody()
    form.file("file", filename: "photo.png", contentType: "image/png", bytes: try testdataBytes("photos/small-coffee.png"))
    let finished = form.finished()
    let headers = finished.headers + extra
    let body = finished.body
    return try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120))) { client in
        let response = try await client.post("/api/v1/projects/\(project)/photos", headers: headers, body: body)
        return (UInt(response.status.code), response.headers[.retryAfter] ?? "-")
    }
}

/// Uploads' projects in the order their answers came.
private final class CompletionLog: Sendable {
    let names = Mutex<[String]>([])
}
