import Foundation
import LumaAnalysis
import PhotoValidation
import SignalForwarding

/// The duplicate check of a project's photos: compares a photo's fingerprint with those of the
/// photos the project accepted within the retention period, and remembers accepted ones.
///
/// The store hands out a project's photos, parsed once; the comparisons themselves are pure CPU
/// work that the caller runs in its worker-pool slot, under its deadline and fair admission, so a
/// project of large fingerprints costs its own uploads and no one else's.
public final class DuplicateCheck: Sendable {
    /// Where accepted photos' fingerprints are kept.
    public let store: PhotoFingerprintStore
    /// When two photos are one photo.
    public let rule: DuplicateRule

    /// A check over `store` by `rule`.
    public init(store: PhotoFingerprintStore, rule: DuplicateRule) {
        self.store = store
        self.rule = rule
    }

    /// The photos of `projectID` a new photo is compared with (other than `photoID`), and the
    /// store's generation to hand `remember` afterwards.
    func candidates(in projectID: String, besides photoID: String?) -> (photos: [PhotoFingerprintStore.Photo], generation: UInt64) {
        store.photos(in: projectID, besides: photoID)
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
    /// arrived meanwhile, wherever the caller's work is admitted.
    ///
    /// - Throws: what `compare` throws.
    func remember(_ fingerprint: PhotoFingerprint, photoID: String, in projectID: String, comparedUpTo generation: UInt64,
                  compare: ([PhotoFingerprintStore.Photo]) async throws -> String?) async rethrows -> PhotoFingerprintStore.Remembered {
        try await store.remember(fingerprint, photoID: photoID, in: projectID, comparedUpTo: generation, compare: compare)
    }

    /// Forgets `photoID` of `projectID`; returns whether it was remembered.
    ///
    /// - Throws: `OutboxError` when the store cannot be written.
    func forget(photoID: String, in projectID: String) async throws(OutboxError) -> Bool {
        try await store.forget(photoID: photoID, in: projectID)
    }
}
