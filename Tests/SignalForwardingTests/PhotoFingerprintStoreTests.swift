import BlurMetrics
import Foundation
import GRDB
import LumaAnalysis
import Synchronization
import TestFixtures
import Testing
@testable import SignalForwarding

/// Two real fingerprints of different noise pictures.
private let fingerprints: [PhotoFingerprint] = (0..<2).map { seed in
    var random = SplitMix64(state: UInt64(seed + 1))
    let pixels = (0..<(96 * 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    return PhotoFingerprint(of: LumaPlane(width: 96, height: 64, pixels: pixels))
}

@Suite("The fingerprint store: parsed once, compared outside its lock, within its limits", .timeLimit(.minutes(10)))
struct PhotoFingerprintStoreTests {
    private let limits = ProjectMemory<PhotoFingerprint>.Limits(retention: 3600, photosPerProject: 64, totalBytes: 64 << 20)

    private func remember(_ store: PhotoFingerprintStore, _ index: Int, as photoID: String, in project: String, after generation: UInt64 = 0,
                          now: Date = Date(), same: @escaping ([PhotoFingerprintStore.Photo]) -> String? = { _ in nil }) async -> PhotoFingerprintStore.Remembered {
        await store.remember(fingerprints[index], photoID: photoID, in: project, comparedUpTo: generation, now: now) { same($0) }
    }

    @Test("photos are kept per project and within the retention; a photo id keeps its photo: the same again changes nothing, another is a conflict")
    func remembersPerProject() async throws {
        let store = PhotoFingerprintStore(limits: limits)
        let start = Date()
        #expect(await remember(store, 0, as: "p1", in: "one", now: start) == .remembered(row: nil))
        #expect(await remember(store, 0, as: "p2", in: "two", now: start) == .remembered(row: nil))
        #expect(await remember(store, 1, as: "p3", in: "one", now: start + 10) == .remembered(row: nil))
        #expect(store.photos(in: "one", now: start + 20).photos.map(\.photoID) == ["p1", "p3"])
        #expect(store.photos(in: "one", besides: "p1", now: start + 20).photos.map(\.photoID) == ["p3"])
        #expect(store.photos(in: "one", now: start + 3605).photos.map(\.photoID) == ["p3"])
        #expect(await remember(store, 0, as: "p1", in: "one", now: start + 30) == .alreadyRemembered)
        #expect(await remember(store, 1, as: "p1", in: "one", now: start + 30) == .conflict)
        #expect(store.photos(in: "one", now: start + 40).photos.first?.fingerprint == fingerprints[0])
        #expect(try await store.forget(photoID: "p1", in: "one"))
        #expect(try await !store.forget(photoID: "p1", in: "one"))
    }

    @Test("remembering compares only with the photos that arrived since the caller's comparison, and keeps nothing when one of them is the same")
    func comparesArrivals() async throws {
        let store = PhotoFingerprintStore(limits: limits)
        _ = await remember(store, 0, as: "before", in: "one")
        let generation = store.photos(in: "one").generation
        _ = await remember(store, 0, as: "meanwhile", in: "one")
        var handed: [[String]] = []
        let outcome = await remember(store, 0, as: "late", in: "one", after: generation) { arrived in
            handed.append(arrived.map(\.photoID))
            return arrived.first?.photoID
        }
        #expect(outcome == .duplicate(of: "meanwhile"))
        #expect(handed == [["meanwhile"]])
        #expect(store.photos(in: "one").photos.map(\.photoID) == ["before", "meanwhile"])
    }

    @Test("20 uploads of one photo remembered at once: exactly one is kept, every other is told its id")
    func racingCopies() async throws {
        let store = PhotoFingerprintStore(limits: limits)
        let outcomes = await withTaskGroup(of: PhotoFingerprintStore.Remembered.self) { group in
            for index in 0..<20 {
                group.addTask {
                    await store.remember(fingerprints[0], photoID: "copy\(index)", in: "one", comparedUpTo: 0) { arrived in
                        await Task.yield()
                        return arrived.first?.photoID
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let kept = store.photos(in: "one").photos.map(\.photoID)
        #expect(kept.count == 1)
        #expect(outcomes.count { $0 == .remembered(row: nil) } == 1)
        #expect(outcomes.count { $0 == .duplicate(of: kept[0]) } == 19)
    }

    @Test("an upload is compared with the project's newest photos only, and the project keeps no more than those")
    func comparedPhotosAreBounded() async throws {
        let store = PhotoFingerprintStore(limits: limits)
        let start = Date()
        for index in 0..<70 {
            _ = await remember(store, index % 2, as: "p\(index)", in: "crowded", now: start + Double(index))
        }
        let kept = store.photos(in: "crowded", now: start + 70).photos.map(\.photoID)
        #expect(kept == (6..<70).map { "p\($0)" })
        #expect(store.usage.photos == 64)
    }

    @Test("mirrored in SQLite: a row is written only when persisted, a reopened store loads within its limits, an unreadable or outsized row is dropped")
    func persisted() async throws {
        let database = try DatabaseQueue()
        let store = try PhotoFingerprintStore(database: database, limits: limits)
        let now = Date()
        guard case .remembered(let row?) = await remember(store, 0, as: "a", in: "one", now: now) else {
            Issue.record("a persisted store hands back the row to write")
            return
        }
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo_fingerprint") } == 0)
        try await store.persist(row)
        guard case .remembered(let second?) = await remember(store, 1, as: "b", in: "one", now: now + 1) else { return }
        try await store.persist(second)
        // A withdrawn photo (its signal could not be promised) is forgotten in memory.
        guard case .remembered(let third?) = await remember(store, 1, as: "c", in: "two", now: now + 2) else { return }
        store.withdraw(third)
        #expect(store.photos(in: "two").photos.isEmpty)
        try await database.write { db in
            try db.execute(sql: "INSERT INTO photo_fingerprint VALUES ('one', 'junk', 'not a fingerprint', ?)", arguments: [now.timeIntervalSince1970])
            try db.execute(sql: "INSERT INTO photo_fingerprint VALUES ('one', 'huge', ?, ?)",
                           arguments: [Data(repeating: PhotoFingerprint.version, count: PhotoFingerprint.maximumByteCount + 1), now.timeIntervalSince1970])
            // A row of the version before (base64 text, as stored until fingerprints became bytes) is refused, not misread.
            try db.execute(sql: "INSERT INTO photo_fingerprint VALUES ('one', 'text', ?, ?)", arguments: [fingerprints[0].base64, now.timeIntervalSince1970])
            // Bytes of another version are refused by their version byte.
            var older = fingerprints[0].bytes
            older[0] = 2
            try db.execute(sql: "INSERT INTO photo_fingerprint VALUES ('one', 'older', ?, ?)", arguments: [Data(older), now.timeIntervalSince1970])
        }
        let small = ProjectMemory<PhotoFingerprint>.Limits(retention: 3600, photosPerProject: 1, totalBytes: 64 << 20)
        let evicted = Mutex<[EvictedPhoto]>([])
        let reopened = try PhotoFingerprintStore(database: database, limits: small) { photos in evicted.withLock { $0 += photos } }
        #expect(reopened.photos(in: "one").photos.map(\.photoID) == ["b"])
        #expect(try await database.read { try String.fetchAll($0, sql: "SELECT photo_id FROM photo_fingerprint ORDER BY photo_id") } == ["b"])
        // Forgetting deletes the row too.
        #expect(try await reopened.forget(photoID: "b", in: "one"))
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM photo_fingerprint") } == 0)
    }

    @Test("the rows of evicted photos go in the same transaction as the new photo's, so the table stays within the limits")
    func rowsFollowEvictions() async throws {
        let database = try DatabaseQueue()
        let small = ProjectMemory<PhotoFingerprint>.Limits(retention: 3600, photosPerProject: 3, totalBytes: 64 << 20)
        let store = try PhotoFingerprintStore(database: database, limits: small)
        for index in 0..<10 {
            guard case .remembered(let row?) = await remember(store, index % 2, as: "p\(index)", in: "one", now: Date() + Double(index)) else {
                Issue.record("photo \(index) was not remembered")
                return
            }
            try await store.persist(row)
        }
        #expect(try await database.read { try String.fetchAll($0, sql: "SELECT photo_id FROM photo_fingerprint ORDER BY created_at") } == ["p7", "p8", "p9"])
    }
}
