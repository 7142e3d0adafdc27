import Foundation
import SharedStore
import SignalForwarding
import Synchronization
import Testing
import TestFixtures

/// The outbox and idempotent answers replicas share, on a real PostgreSQL cluster: a repeat of a
/// key on any replica gets the first answer and promises nothing more; every replica delivers,
/// one claim per signal at a time; a dead replica's claim passes to the others when its lease ends;
/// dead letters and counts across replicas.
@Suite(.integration, .enabled(if: PostgresCluster.available, "needs PostgreSQL's server (scripts/setup --test installs it)"))
struct SharedOutboxTests {
    private func photo(_ id: String) -> PhotoData {
        PhotoData(photoID: id, storageKey: "photos/\(id)", photoType: "room", note: nil)
    }

    @Test func aKeyRepeatedOnEveryReplicaAtOnceIsAnsweredOnceAndPromisesOneSignal() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(3, url: try await cluster.createDatabase()) { stores in
                let outboxes = stores.map { SharedOutbox(store: $0, logger: testLogger) }
                for key in 0..<10 {
                    let answers = try await withThrowingTaskGroup(of: IdempotentUpload.self) { group in
                        for (replica, outbox) in outboxes.enumerated() {
                            let photoID = "k\(key)-r\(replica)"
                            let upload = IdempotentUpload(projectID: "project", key: "key-\(key)", requestDigest: "digest-\(key)", photoID: photoID,
                                                          answer: #"{"photo_id":"\#(photoID)","validation":{"passed":true},"note":"✓"}"#)
                            let promise = try SharedOutbox.promise(workflowID: "project", signalName: "photo_added", photo: photo(photoID))
                            group.addTask { try await outbox.record(upload, alongside: promise) }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(Set(answers.map(\.photoID)).count == 1, "key \(key): \(answers.map(\.photoID))")
                    #expect(Set(answers.map { Array($0.answer.utf8) }).count == 1, "the first answer, byte for byte")
                    // A later repeat on another replica reads the same bytes.
                    let later = try await outboxes[(key + 1) % 3].idempotentUpload(projectID: "project", key: "key-\(key)")
                    #expect(later?.answer == answers[0].answer && later?.photoID == answers[0].photoID)
                }
                let counts = try await outboxes[2].counts()
                #expect(counts.pending == 10, "one signal per key: \(counts)")
            }
        }
    }

    @Test func everyReplicaDeliversAndNoSignalIsClaimedTwiceWithinItsLease() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(3, url: try await cluster.createDatabase()) { stores in
                let outboxes = stores.map { SharedOutbox(store: $0, logger: testLogger) }
                for index in 0..<60 {
                    try await outboxes[index % 3].enqueue(workflowID: "wf", signalName: "photo_added", photo: photo("s\(index)"))
                }
                let claims = ClaimLog()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (replica, outbox) in outboxes.enumerated() {
                        group.addTask {
                            // Each replica claims a few at a time and delivers them, until none is due.
                            while true {
                                let claimed = try await outbox.claimDue(lease: 600, limit: 4)
                                if claimed.isEmpty { return }
                                claims.ids.withLock { $0[replica, default: []] += claimed.map(\.id) }
                                for entry in claimed { try await outbox.markDelivered(entry.id) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let all = claims.ids.withLock { $0.values.flatMap { $0 } }
                #expect(all.count == 60 && Set(all).count == 60, "each signal claimed exactly once: \(all.count) claims, \(Set(all).count) signals")
                #expect(try await outboxes[0].counts() == OutboxCounts(pending: 0, delivered: 60, dead: 0, oldestPendingAgeSeconds: nil))
            }
        }
    }

    @Test func aSignalClaimedByAReplicaThatDiedIsDeliveredByAnotherWhenItsLeaseEnds() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(2, url: try await cluster.createDatabase()) { stores in
                let (dying, survivor) = (SharedOutbox(store: stores[0], logger: testLogger), SharedOutbox(store: stores[1], logger: testLogger))
                let now = Date()
                try await dying.enqueue(workflowID: "wf", signalName: "photo_added", photo: photo("orphan"), now: now)
                #expect(try await dying.claimDue(now: now, lease: 30).map(\.photo.photoID) == ["orphan"])
                // The claimer is gone (never marks it); within the lease nobody else may try.
                #expect(try await survivor.claimDue(now: now.addingTimeInterval(29)).isEmpty)
                let reclaimed = try await survivor.claimDue(now: now.addingTimeInterval(31))
                #expect(reclaimed.map(\.photo.photoID) == ["orphan"])
                try await survivor.markDelivered(try #require(reclaimed.first).id)
                #expect(try await dying.counts().delivered == 1)
            }
        }
    }

    @Test func anAnswerEditedInTheDatabaseIsRefusedNotReplayed() async throws {
        try await PostgresCluster.with { cluster in
            let url = try await cluster.createDatabase()
            try await withReplicas(1, url: url) { stores in
                let outbox = SharedOutbox(store: stores[0], logger: testLogger)
                let answer = #"{"photo_id":"p1","validation":{"passed":true,"failures":[],"messages":["Photo looks great!"]}}"#
                _ = try await outbox.record(IdempotentUpload(projectID: "project", key: "k", requestDigest: "d", photoID: "p1", answer: answer))
                #expect(try await outbox.idempotentUpload(projectID: "project", key: "k")?.answer == answer)
                _ = try await cluster.psql(url, "UPDATE photo_validator.idempotent_upload SET answer = convert_to('garbage {', 'UTF8')")
                await #expect(throws: SharedStoreError.self) { _ = try await outbox.idempotentUpload(projectID: "project", key: "k") }
                // A repeat racing it reads the stored answer back to replay it: refused the same way.
                let repeated = IdempotentUpload(projectID: "project", key: "k", requestDigest: "d", photoID: "p2", answer: answer)
                await #expect(throws: SharedStoreError.self) { _ = try await outbox.record(repeated) }
                _ = try await cluster.psql(url, #"UPDATE photo_validator.idempotent_upload SET answer = convert_to('{"photo_id":"someone else","validation":{"passed":true}}', 'UTF8')"#)
                await #expect(throws: SharedStoreError.self) { _ = try await outbox.idempotentUpload(projectID: "project", key: "k") }
            }
        }
    }

    @Test func deadLettersAreSeenAndRetriedFromAnyReplica() async throws {
        try await PostgresCluster.with { cluster in
            try await withReplicas(2, url: try await cluster.createDatabase()) { stores in
                let (first, second) = (SharedOutbox(store: stores[0], logger: testLogger), SharedOutbox(store: stores[1], logger: testLogger))
                try await first.enqueue(workflowID: "wf", signalName: "photo_added", photo: photo("rejected"))
                let claimed = try await first.claimDue()
                try await first.markDead(try #require(claimed.first).id, reason: "workflow not found")
                let dead = try await second.deadLetters()
                #expect(dead.map(\.photo.photoID) == ["rejected"] && dead.first?.deadReason == "workflow not found")
                #expect(try await second.counts().dead == 1)
                #expect(try await second.retryDeadLetters(photoID: "rejected") == 1)
                #expect(try await first.claimDue().map(\.photo.photoID) == ["rejected"])
            }
        }
    }
}

/// The ids each replica claimed, shared by the replicas' tasks.
private final class ClaimLog: Sendable {
    let ids = Mutex<[Int: [Int64]]>([:])
}
