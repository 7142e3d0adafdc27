import Foundation
import LumaAnalysis
import PhotoValidation
import SignalForwarding
import Synchronization

/// The duplicate check of a project's photos: compares a photo's fingerprint with those of the
/// photos the project accepted within the retention period, and remembers accepted ones.
public final class DuplicateCheck: Sendable {
    /// Where accepted photos' fingerprints are kept.
    public let store: PhotoFingerprintStore
    /// When two photos are one photo.
    public let rule: DuplicateRule
    private let lastPrune = Mutex<ContinuousClock.Instant?>(nil)

    /// A check over `store` by `rule`.
    public init(store: PhotoFingerprintStore, rule: DuplicateRule) {
        self.store = store
        self.rule = rule
    }

    /// The earlier photo of `projectID` that `output` duplicates (other than `photoID`), or nil;
    /// nil too when the photo has no fingerprint (it was not decoded).
    ///
    /// - Throws: `OutboxError` when the store cannot be read.
    func earlierPhoto(of output: ValidatePhotoOutput, in projectID: String, besides photoID: String?) async throws(OutboxError) -> String? {
        guard let isSame = matcher(for: output) else { return nil }
        return try await store.earlierPhoto(in: projectID, besides: photoID, isSame: isSame)
    }

    /// Remembers the accepted photo `photoID` of `projectID`; returns the earlier photo it turned
    /// out to duplicate when one was remembered meanwhile (nothing is remembered then).
    ///
    /// - Throws: `OutboxError` when the store cannot be written.
    func remember(_ output: ValidatePhotoOutput, photoID: String, in projectID: String) async throws(OutboxError) -> String? {
        guard let encoded = output.details.fingerprint, let isSame = matcher(for: output) else { return nil }
        let earlier = try await store.remember(encoded, photoID: photoID, in: projectID, isSame: isSame)
        await pruneHourly()
        return earlier
    }

    /// Forgets `photoID` of `projectID`; returns whether it was remembered.
    ///
    /// - Throws: `OutboxError` when the store cannot be written.
    func forget(photoID: String, in projectID: String) async throws(OutboxError) -> Bool {
        try await store.forget(photoID: photoID, in: projectID)
    }

    /// Whether a stored fingerprint is the photo of `output`; nil when `output` has no fingerprint.
    private func matcher(for output: ValidatePhotoOutput) -> (@Sendable (String) -> Bool)? {
        guard let fingerprint = output.details.fingerprint.flatMap(PhotoFingerprint.init(base64:)) else { return nil }
        let rule = rule
        return { stored in PhotoFingerprint(base64: stored).map { $0.matches(fingerprint, rule: rule) } ?? false }
    }

    /// Drops expired fingerprints at most once an hour, so projects never seen again do not grow the store.
    private func pruneHourly() async {
        let now = ContinuousClock.now
        let due = lastPrune.withLock { last in
            guard last.map({ now - $0 >= .seconds(3600) }) ?? true else { return false }
            last = now
            return true
        }
        if due { _ = try? await store.prune() }
    }
}
