import Foundation
import SignalForwarding
import Testing

@Suite("The fingerprint store of the duplicate check")
struct PhotoFingerprintStoreTests {
    @Test("finds the earliest matching photo of the project only, within the retention, and forgets on request")
    func lookup() async throws {
        let store = try PhotoFingerprintStore(retention: 3600)
        let start = Date(timeIntervalSince1970: 1_000_000)
        #expect(try await store.remember("A", photoID: "p1", in: "one", now: start) { _ in false } == nil)
        #expect(try await store.remember("A", photoID: "p2", in: "two", now: start) { _ in false } == nil)
        #expect(try await store.remember("B", photoID: "p3", in: "one", now: start + 10) { _ in false } == nil)
        let isA: @Sendable (String) -> Bool = { $0 == "A" }
        #expect(try await store.earlierPhoto(in: "one", now: start + 20, isSame: isA) == "p1")
        #expect(try await store.earlierPhoto(in: "one", besides: "p1", now: start + 20, isSame: isA) == nil)
        #expect(try await store.earlierPhoto(in: "three", now: start + 20, isSame: isA) == nil)
        // Past the retention the photo is no longer a duplicate's original, and pruning drops it.
        #expect(try await store.earlierPhoto(in: "one", now: start + 3601, isSame: isA) == nil)
        #expect(try await store.prune(now: start + 3611) == 3)
        #expect(try await store.remember("A", photoID: "p4", in: "one", now: start + 3612) { _ in false } == nil)
        #expect(try await store.forget(photoID: "p4", in: "one"))
        #expect(try await !store.forget(photoID: "p4", in: "one"))
        #expect(try await store.earlierPhoto(in: "one", now: start + 3613, isSame: isA) == nil)
    }

    @Test("remembering re-checks in its transaction: the second of two copies gets the first's id and is not stored")
    func rememberChecks() async throws {
        let store = try PhotoFingerprintStore(retention: 3600)
        let now = Date()
        #expect(try await store.remember("A", photoID: "first", in: "one", now: now) { $0 == "A" } == nil)
        #expect(try await store.remember("A", photoID: "second", in: "one", now: now) { $0 == "A" } == "first")
        #expect(try await !store.forget(photoID: "second", in: "one"))
    }

    @Test("an upload is compared with the project's newest photos only, so a crowded project cannot make it costly")
    func comparedPhotosAreBounded() async throws {
        let store = try PhotoFingerprintStore(retention: 3600)
        let start = Date()
        let total = PhotoFingerprintStore.comparedPhotos + 6
        for index in 0..<total {
            _ = try await store.remember("F\(index)", photoID: "p\(index)", in: "crowded", now: start + Double(index)) { _ in false }
        }
        let compared = LockedCounter()
        let newest = try await store.earlierPhoto(in: "crowded", now: start + Double(total)) { fingerprint in
            compared.increment()
            return fingerprint == "F\(total - 1)" || fingerprint == "F0"
        }
        #expect(newest == "p\(total - 1)")
        #expect(compared.value == PhotoFingerprintStore.comparedPhotos)
        #expect(try await store.earlierPhoto(in: "crowded", now: start + Double(total)) { $0 == "F5" } == nil)
        #expect(try await store.earlierPhoto(in: "crowded", now: start + Double(total)) { $0 == "F6" } == "p6")
    }
}

/// A counter the store's callback may bump from its database thread.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Adds one.
    func increment() { lock.withLock { count += 1 } }

    /// The count so far.
    var value: Int { lock.withLock { count } }
}
