import Foundation
import Logging
import SharedStore
import SignalForwarding
import TestFixtures

/// A quiet logger for the stores under test.
let testLogger: Logger = {
    var logger = Logger(label: "shared-store-test")
    logger.logLevel = .warning
    return logger
}()

/// Shared stores on one database, as replicas have them: each runs (and so migrates) in a task of
/// its own while `body` runs, and stops after.
func withReplicas<Result: Sendable>(_ count: Int, url: String, poolSize: Int = 4,
                                    _ body: @Sendable ([SharedStore]) async throws -> Result) async throws -> Result {
    let logger = testLogger
    let stores = try (0..<count).map { _ in
        try SharedStore(settings: SharedStoreSettings(url: url, poolSize: poolSize, tls: .disable), logger: logger, retryDelay: .milliseconds(100))
    }
    return try await withThrowingTaskGroup(of: Void.self) { group in
        for store in stores { group.addTask { try await store.run() } }
        defer { group.cancelAll() }
        guard try await poll(until: { stores.allSatisfy { $0.readiness == .ready } }) else {
            throw PostgresCluster.Failure(description: "the stores did not become ready: \(stores.map(\.readiness))")
        }
        return try await body(stores)
    }
}

/// A fingerprint for the memory's tests: its text, compared whole.
typealias TextMemory = SharedProjectMemory<String>

extension SharedProjectMemory<String> {
    /// A memory of text fingerprints on `store`, each costing its length.
    static func text(_ store: SharedStore, photosPerProject: Int = 64, retention: TimeInterval = 3600, totalBytes: Int = 1 << 20,
                     onEvict: @escaping @Sendable ([EvictedPhoto]) -> Void = { _ in }) -> TextMemory {
        var logger = Logger(label: "shared-memory-test")
        logger.logLevel = .warning
        return TextMemory(
            store: store, limits: .init(retention: retention, photosPerProject: photosPerProject, totalBytes: totalBytes), logger: logger,
            decode: { String(decoding: $0, as: UTF8.self) }, cost: { $0.utf8.count },
            onEvict: onEvict
        )
    }

    /// Remembers `text` as `photoID`, comparing (by equality) with what arrived since `generation`.
    func remember(_ text: String, as photoID: String, in projectID: String, comparedUpTo generation: UInt64, now: Date = Date()) async throws -> PhotoFingerprintStore.Remembered {
        try await remember(text, encoded: Array(text.utf8), photoID: photoID, in: projectID, comparedUpTo: generation, now: now) { arrived in
            arrived.first { $0.fingerprint == text }?.photoID
        }
    }
}
