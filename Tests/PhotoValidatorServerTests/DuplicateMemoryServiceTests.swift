import BlurMetrics
import Foundation
import Logging
import Synchronization
import LumaAnalysis
import SignalForwarding
import TestFixtures
import Testing
@testable import PhotoValidatorServer

@Suite("The duplicate memory's prune, off the request path", .timeLimit(.minutes(10)))
struct DuplicateMemoryServiceTests {
    @Test("expired photos are forgotten on the service's timer, and the service ends when its task is cancelled")
    func prunesOnATimer() async throws {
        let evicted = EvictionLog()
        let store = PhotoFingerprintStore(limits: .init(retention: 0.2, photosPerProject: 8, totalBytes: 1 << 30)) { evicted.add($0) }
        let fingerprint = PhotoFingerprint(of: LumaPlane(width: 48, height: 32, pixels: (0..<1536).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        _ = await store.remember(fingerprint, photoID: "old", in: "p", comparedUpTo: 0) { _ in nil }
        let service = DuplicateMemoryService(check: DuplicateCheck(store: store, rule: .default), interval: .milliseconds(100), logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        #expect(try await poll { store.usage.photos == 0 })
        #expect(evicted.reasons == [.age])
        running.cancel()
        try await running.value
    }
}

/// Evictions the store reported, from whichever thread.
private final class EvictionLog: Sendable {
    private let log = Mutex<[EvictedPhoto]>([])
    func add(_ photos: [EvictedPhoto]) { log.withLock { $0 += photos } }
    var reasons: [EvictedPhoto.Reason] { log.withLock { $0.map(\.reason) } }
}
