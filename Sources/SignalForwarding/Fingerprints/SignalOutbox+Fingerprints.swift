import Foundation
import LumaAnalysis

extension SignalOutbox {
    /// The project fingerprint store mirrored in this outbox's database, within `limits`;
    /// `onEvict` hears of every photo the limits made it forget.
    ///
    /// - Throws: `OutboxError.unavailable` when its table cannot be created or read.
    package func fingerprintStore(limits: ProjectMemory<PhotoFingerprint>.Limits,
                                 onEvict: @escaping @Sendable ([EvictedPhoto]) -> Void = { _ in }) throws(OutboxError) -> PhotoFingerprintStore {
        do {
            return try PhotoFingerprintStore(database: database, limits: limits, onEvict: onEvict)
        } catch {
            throw .unavailable("cannot open the fingerprint store in the outbox at \(path): \(error)")
        }
    }
}
