import Foundation
import Logging
import LumaAnalysis
import PhotoValidation
import SharedStore
import SignalForwarding

/// The duplicate check of a project's photos: compares a photo's fingerprint with those of the
/// photos the project accepted within the retention period, and remembers accepted ones.
///
/// The store hands out a project's photos, parsed once; the comparisons themselves are pure CPU
/// work that the caller runs in its worker-pool slot, under its deadline and fair admission, so a
/// project of large fingerprints costs its own uploads and no one else's.
package final class DuplicateCheck: Sendable {
    /// Where accepted photos' fingerprints are kept by this replica (unused when `shared` is set).
    package let store: PhotoFingerprintStore
    /// The project memory replicas share (`store.url`), which then replaces `store`.
    package let shared: SharedProjectMemory<PhotoFingerprint>?
    /// When two photos are one photo.
    package let rule: DuplicateRule

    /// A check over `store` (or, when given, the `shared` memory) by `rule`.
    package init(store: PhotoFingerprintStore, rule: DuplicateRule, shared: SharedProjectMemory<PhotoFingerprint>? = nil) {
        self.store = store
        self.rule = rule
        self.shared = shared
    }

    /// The memory in the shared store `sharedStore`, within `limits`, telling `onEvict` what its
    /// limits made it forget.
    static func sharedMemory(_ sharedStore: SharedStore, limits: ProjectMemory<PhotoFingerprint>.Limits, logger: Logger,
                             onEvict: @escaping @Sendable ([EvictedPhoto]) -> Void) -> SharedProjectMemory<PhotoFingerprint> {
        SharedProjectMemory(store: sharedStore, limits: limits, logger: logger, decode: { PhotoFingerprint(bytes: $0) },
                            cost: { $0.memoryBytes }, onEvict: onEvict)
    }

    /// The photos of `projectID` a new photo is compared with (other than `photoID`), and the
    /// store's generation to hand `remember` afterwards.
    ///
    /// - Throws: `SharedStoreError` when the shared store cannot be read.
    func candidates(in projectID: String, besides photoID: String?) async throws -> (photos: [PhotoFingerprintStore.Photo], generation: UInt64) {
        guard let shared else { return store.photos(in: projectID, besides: photoID) }
        return try await shared.photos(in: projectID, besides: photoID)
    }

    /// The screen of a new photo's `fingerprint` by the rule, made once per photo: it passes to
    /// the full comparison only the earlier photos that could be copies of it.
    func screen(of fingerprint: PhotoFingerprint) -> DuplicateScreen {
        DuplicateScreen(of: fingerprint, rule: rule)
    }

    /// The id of the earliest of `photos` that is the photo `screen` was made of, or nil: each
    /// photo screened (bounded by the screen's cost), the admitted ones compared in full (bounded
    /// too: parsed fingerprints are bounded), at most once each.
    func earliestMatch(of screen: DuplicateScreen, among photos: some Collection<PhotoFingerprintStore.Photo>) -> String? {
        screen.earliestMatch(among: photos, fingerprint: \.fingerprint).match?.photoID
    }

    /// The bytes of kept fingerprints one comparison job takes at most (14 photos' of any shape
    /// but the smallest, each about 17.5 KB parsed): comparing costs in proportion to them.
    static let batchBytes = 256 << 10

    /// `photos` in order, cut into runs of at most `batchBytes` (one photo at least each), so
    /// that comparing a new photo with them is a series of short jobs.
    static func batches(of photos: [PhotoFingerprintStore.Photo]) -> [ArraySlice<PhotoFingerprintStore.Photo>] {
        var batches: [ArraySlice<PhotoFingerprintStore.Photo>] = []
        var start = photos.startIndex, bytes = 0
        for index in photos.indices {
            if index > start, bytes + photos[index].bytes > batchBytes {
                batches.append(photos[start..<index])
                start = index
                bytes = 0
            }
            bytes += photos[index].bytes
        }
        if start < photos.endIndex { batches.append(photos[start...]) }
        return batches
    }

    /// Remembers the accepted photo `photoID` of `projectID` (whose fingerprint was compared with
    /// the project's photos up to `generation`); `compare` runs `earliestMatch` on the photos that
    /// arrived meanwhile, wherever the caller's work is admitted. In the shared memory, `alongside`
    /// (the photo's signal and answer) commits in the photo's transaction, run exactly when the
    /// photo is remembered there; this replica's own memory ignores it (its row goes with the signal).
    ///
    /// - Throws: what `compare` or `alongside` throw, or `SharedStoreError` when the shared store fails.
    func remember(_ fingerprint: PhotoFingerprint, photoID: String, in projectID: String, comparedUpTo generation: UInt64,
                  alongside: SharedStatement? = nil,
                  compare: @escaping @Sendable ([PhotoFingerprintStore.Photo]) async throws -> String?) async throws -> PhotoFingerprintStore.Remembered {
        guard let shared else {
            return try await store.remember(fingerprint, photoID: photoID, in: projectID, comparedUpTo: generation, compare: compare)
        }
        return try await shared.remember(fingerprint, encoded: fingerprint.bytes, photoID: photoID, in: projectID, comparedUpTo: generation,
                                         compare: compare, alongside: alongside ?? { _ in })
    }

    /// Forgets `photoID` of `projectID`; returns whether it was remembered.
    ///
    /// - Throws: `OutboxError` or `SharedStoreError` when the store cannot be written.
    func forget(photoID: String, in projectID: String) async throws -> Bool {
        guard let shared else { return try await store.forget(photoID: photoID, in: projectID) }
        return try await shared.forget(photoID: photoID, in: projectID)
    }

    /// Forgets fingerprints older than the retention period (and, shared, over the byte budget).
    func prune() async throws {
        guard let shared else {
            try await store.prune()
            return
        }
        try await shared.prune()
    }

    /// Photos remembered, their bytes, and the projects they belong to (over every replica when shared).
    func usage() async throws -> (photos: Int, bytes: Int, projects: Int) {
        guard let shared else { return store.usage }
        return try await shared.usage()
    }
}
