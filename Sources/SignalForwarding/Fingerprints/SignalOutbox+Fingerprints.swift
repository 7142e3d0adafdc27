import Foundation

extension SignalOutbox {
    /// The project fingerprint store in this outbox's database.
    ///
    /// - Throws: `OutboxError.unavailable` when its table cannot be created.
    public func fingerprintStore(retention: TimeInterval) throws(OutboxError) -> PhotoFingerprintStore {
        do {
            return try PhotoFingerprintStore(database: database, retention: retention)
        } catch {
            throw .unavailable("cannot open the fingerprint store in the outbox at \(path): \(error)")
        }
    }
}
