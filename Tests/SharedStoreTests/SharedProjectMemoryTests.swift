import Foundation
import Logging
import PostgresNIO
import SharedStore
import SignalForwarding
import Synchronization
import Testing
import TestFixtures

/// The project memory replicas share, on a real PostgreSQL cluster (initdb/pg_ctl on a Unix
/// socket): duplicates across replicas, racing uploads of one photo, the bounds, forgetting from
/// any replica, and the database going away and coming back.
@Suite(.integration, .enabled(if: PostgresCluster.available, "needs PostgreSQL's server (scripts/setup --test installs it)"))
struct SharedProjectMemoryTests {
    /// The duplicate check's flow on one replica: compare with the project's photos, then remember
    /// comparing with what arrived meanwhile. Returns nil when remembered, else the earlier photo.
    private func check(_ text: String, as photoID: String, in projectID: String, on memory: TextMemory) async throws -> String? {
        let (photos, generation) = try await memory.photos(in: projectID, besides: photoID)
        if let earlier = photos.first(where: { $0.fingerprint == text }) { return earlier.photoID }
        switch try await memory.remember(text, as: photoID, in: projectID, comparedUpTo: generation) {
        case .remembered: return nil
        case .duplicate(let earlier): return earlier
        case .alreadyRemembered, .conflict: Issue.record("\(photoID) was already there"); return nil
        }
    }

    @Test func replicasMigrateTheSchemaOnceAndRefuseANewerOne() async throws {
        try await PostgresCluster.with { cluster in
            let url = try await cluster.createDatabase()
            try await withReplicas(3, url: url) { stores in
                _ = stores
                let versions = try await cluster.psql(url, "SELECT version FROM photo_validator.schema_version ORDER BY version")
                #expect(versions.split(separator: "\n").map(String.init) == SharedStoreSchema.migrations.map { String($0.version) })
            }
            try await cluster.psql(url, "INSERT INTO photo_validator.schema_version (version, summary) VALUES (999, 'from the future')")
            var logger = Logger(label: "newer")
            logger.logLevel = .critical
            let older = try SharedStore(settings: SharedStoreSettings(url: url, tls: .disable), logger: logger, retryDelay: .milliseconds(100))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await older.run() }
                defer { group.cancelAll() }
                let refused = try await poll { if case .unavailable(let why) = older.readiness { why.contains("newer") } else { false } }
                #expect(refused, "a replica older than the schema must not use it: \(older.readiness)")
                await #expect(throws: SharedStoreError.self) { _ = try await TextMemory.text(older).photos(in: "any") }
            }
        }
    }

    @Test func aPhotoAcceptedOnOneReplicaIsADuplicateOnEveryOther() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(3, url: try await cluster.createDatabase()) { stores in
                let memories = stores.map { TextMemory.text($0) }
                var duplicates = 0
                for photo in 0..<50 {
                    let text = "photo-\(photo)"
                    #expect(try await check(text, as: "first-\(photo)", in: "project-\(photo % 4)", on: memories[photo % 3]) == nil)
                    for replica in 0..<3 where replica != photo % 3 {
                        let earlier = try await check(text, as: "again-\(photo)-\(replica)", in: "project-\(photo % 4)", on: memories[replica])
                        #expect(earlier == "first-\(photo)")
                        if earlier != nil { duplicates += 1 }
                    }
                }
                #expect(duplicates == 100)
                // Another project's identical photo is not a duplicate.
                #expect(try await check("photo-0", as: "elsewhere", in: "project-other", on: memories[1]) == nil)
            }
        }
    }

    @Test func racingUploadsOfOnePhotoOnTwoReplicasGiveOneDuplicate() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(2, url: try await cluster.createDatabase()) { stores in
                let memories = stores.map { TextMemory.text($0) }
                for pair in 0..<20 {
                    let project = "race-\(pair % 3)", text = "raced-\(pair)"
                    // Both compared with the project before either remembered: the race the lock decides.
                    let generations = try await (memories[0].photos(in: project).generation, memories[1].photos(in: project).generation)
                    async let left = memories[0].remember(text, as: "left-\(pair)", in: project, comparedUpTo: generations.0)
                    async let right = memories[1].remember(text, as: "right-\(pair)", in: project, comparedUpTo: generations.1)
                    let outcomes = try await [left, right]
                    let kept = outcomes.filter { $0 == .remembered(row: nil) }.count
                    #expect(kept == 1, "pair \(pair): \(outcomes)")
                    let winner = outcomes[0] == .remembered(row: nil) ? "left-\(pair)" : "right-\(pair)"
                    #expect(outcomes.contains(.duplicate(of: winner)), "pair \(pair): \(outcomes)")
                }
            }
        }
    }

    @Test func boundsAndForgettingHoldAcrossReplicas() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(2, url: try await cluster.createDatabase()) { stores in
                let evictions = Mutex<[EvictedPhoto]>([])
                let first = TextMemory.text(stores[0], photosPerProject: 3, totalBytes: 40) { evicted in evictions.withLock { $0 += evicted } }
                let second = TextMemory.text(stores[1], photosPerProject: 3, totalBytes: 40)
                for photo in 0..<5 {
                    #expect(try await check("fp-\(photo)", as: "p\(photo)", in: "bounded", on: first) == nil)
                }
                #expect(try await second.photos(in: "bounded").photos.map(\.photoID) == ["p2", "p3", "p4"])
                #expect(evictions.withLock { $0 } == [EvictedPhoto(projectID: "bounded", photoID: "p0", reason: .projectFull),
                                                      EvictedPhoto(projectID: "bounded", photoID: "p1", reason: .projectFull)])
                // The same id again: the same photo is already there, another photo is a conflict.
                let generation = try await second.photos(in: "bounded").generation
                #expect(try await second.remember("fp-4", as: "p4", in: "bounded", comparedUpTo: generation) == .alreadyRemembered)
                #expect(try await second.remember("other", as: "p4", in: "bounded", comparedUpTo: generation) == .conflict)
                // Forgotten on one replica, gone for the other.
                #expect(try await second.forget(photoID: "p3", in: "bounded"))
                #expect(try await !second.forget(photoID: "p3", in: "bounded"))
                #expect(try await first.photos(in: "bounded").photos.map(\.photoID) == ["p2", "p4"])
                // Retention: a photo from two hours ago is not compared with, and prune forgets it.
                let old = Date().addingTimeInterval(-7200)
                #expect(try await first.remember("ancient", as: "old", in: "aged", comparedUpTo: 0, now: old) == .remembered(row: nil))
                #expect(try await first.photos(in: "aged").photos.isEmpty)
                // The byte budget (40 bytes) over all projects, kept at prune: the aged photo goes for its
                // age, then the oldest of all (b0, p2, p4) until the newest 40 bytes are left.
                for index in 0..<6 {
                    #expect(try await first.remember("budget-\(index)", as: "b\(index)", in: "budget-\(index)", comparedUpTo: 0) == .remembered(row: nil))
                }
                evictions.withLock { $0 = [] }
                #expect(try await first.prune() == 4)
                #expect(Set(evictions.withLock { $0 }.map { "\($0.photoID):\($0.reason.rawValue)" }) == ["old:age", "b0:budget", "p2:budget", "p4:budget"])
                #expect(try await second.usage() == (photos: 5, bytes: 40, projects: 5))
                #expect(try await first.photos(in: "bounded").photos.isEmpty, "the oldest photos of all go first")
                #expect(try await first.photos(in: "budget-0").photos.isEmpty)
            }
        }
    }

    @Test func aPhotoIsRememberedOnlyWithWhatIsCommittedAlongside() async throws {
        struct Refused: Error {}
        try await PostgresCluster.with { cluster in
            try await withReplicas(1, url: try await cluster.createDatabase()) { (stores: [SharedStore]) async throws -> Void in
                let memory = TextMemory.text(stores[0])
                await #expect(throws: Refused.self) {
                    _ = try await memory.remember("kept?", encoded: Array("kept?".utf8), photoID: "p", in: "tx", comparedUpTo: 0,
                                                  compare: { _ in nil }, alongside: { _ in throw Refused() })
                }
                #expect(try await memory.photos(in: "tx").photos.isEmpty)
                #expect(try await check("kept?", as: "p", in: "tx", on: memory) == nil)
            }
        }
    }

    @Test func theDatabaseGoneIsUnavailableAndWorkResumesWhenItReturns() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(1, url: try await cluster.createDatabase()) { stores in
                let memory = TextMemory.text(stores[0])
                #expect(try await check("before", as: "a", in: "outage", on: memory) == nil)
                await cluster.stop()
                let down = ContinuousClock.now
                await #expect(throws: SharedStoreError.self) { _ = try await memory.photos(in: "outage") }
                // Not the pool's minute of queueing: the acquire timeout (2 s) answers, with margin for a loaded machine.
                #expect(ContinuousClock.now - down < .seconds(10))
                let why = await stores[0].check()
                #expect(why != nil)
                if case .unavailable = stores[0].readiness {} else { Issue.record("readiness should say unavailable: \(stores[0].readiness)") }
                try await cluster.start()
                let back = try await poll(within: .seconds(10), every: .milliseconds(100)) { await stores[0].check() == nil }
                #expect(back)
                #expect(try await check("before", as: "b", in: "outage", on: memory) == "a")
                #expect(stores[0].readiness == .ready)
            }
        }
    }

    /// A database frozen in the middle of a transaction (SIGSTOP: the connection open, nothing
    /// answering) fails the call at the store's timeout and closes its connection, and what the
    /// transaction had not committed is not there when the database thaws; the caller's own work
    /// inside the transaction (the comparison) is not counted against the timeout.
    @Test(.timeLimit(.minutes(2)))
    func aDatabaseFrozenMidTransactionFailsTheCallAtItsTimeout() async throws {
        try await PostgresCluster.with { cluster in
            let url = try await cluster.createDatabase()
            let store = try SharedStore(settings: SharedStoreSettings(url: url, poolSize: 2, tls: .disable, timeout: .seconds(1)), logger: testLogger,
                                        retryDelay: .milliseconds(100))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.run() }
                defer { group.cancelAll() }
                #expect(try await poll { store.readiness == .ready })
                let memory = TextMemory.text(store)
                #expect(try await memory.remember("first", as: "p1", in: "frozen", comparedUpTo: 0) == .remembered(row: nil))
                // A comparison longer than the timeout is the caller's time, not the database's: remembered.
                let slow = try await memory.remember("second", encoded: Array("second".utf8), photoID: "p2", in: "frozen", comparedUpTo: 0) { _ in
                    try await Task.sleep(for: .milliseconds(1500))
                    return nil
                }
                #expect(slow == .remembered(row: nil))
                // Frozen while the transaction holds the project's lock, before its insert.
                let frozen = Mutex<[pid_t]>([])
                let start = ContinuousClock.now
                await #expect(throws: SharedStoreError.self) {
                    _ = try await memory.remember("third", encoded: Array("third".utf8), photoID: "p3", in: "frozen", comparedUpTo: 0) { _ in
                        let stopped = try cluster.freeze()
                        frozen.withLock { $0 = stopped }
                        return nil
                    }
                }
                let took = ContinuousClock.now - start
                cluster.thaw(frozen.withLock { $0 })
                print("a transaction frozen under its insert failed after \(took) (timeout 1 s)")
                #expect(took < .seconds(3), "the contract's bound")
                #expect(try await poll(within: .seconds(30), every: .milliseconds(100)) { await store.check() == nil })
                #expect(try await memory.photos(in: "frozen").photos.map(\.photoID) == ["p1", "p2"])
            }
        }
    }

    /// 8 uploads' flows at once, each call timed, while the database stops under them and comes
    /// back. Two waits had no end: a lease the pool keeps queued after it was cancelled (until its
    /// circuit breaker trips, a minute later), and a statement on a connection the stopping
    /// database closed, whose completion the driver lost; the store answers both.
    @Test(.timeLimit(.minutes(2)))
    func aStopUnderLoadHoldsNoCaller() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(1, url: try await cluster.createDatabase()) { stores in
                let memory = TextMemory.text(stores[0])
                // Each worker's longest call and its number of calls.
                let timed = try await withThrowingTaskGroup(of: (longest: Duration, calls: Int).self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            let end = ContinuousClock.now + .seconds(9)
                            var photo = 0, longest = Duration.zero
                            while ContinuousClock.now < end {
                                let start = ContinuousClock.now
                                _ = try? await check("w\(worker)-\(photo)", as: "w\(worker)-\(photo)", in: "race-\(worker % 2)", on: memory)
                                longest = max(longest, ContinuousClock.now - start)
                                photo += 1
                            }
                            return (longest, photo)
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(1))
                        await cluster.stop()
                        try await Task.sleep(for: .seconds(4))
                        try await cluster.start()
                        return (.zero, 0)
                    }
                    return try await group.reduce(into: [(longest: Duration, calls: Int)]()) { $0.append($1) }
                }
                // The acquire timeout is 2 s and a call makes two leases; the margin is for a loaded machine.
                let worst = timed.map(\.longest).max() ?? .zero
                #expect(worst < .seconds(15), "a call waited \(worst) (\(timed.map(\.calls).reduce(0, +)) calls)")
                #expect(try await poll(within: .seconds(10), every: .milliseconds(100)) { await stores[0].check() == nil })
            }
        }
    }
}
