extension ValidatePhotoOutput {
    /// This answer without `details.fingerprint`: what the outbox keeps for an `Idempotency-Key`
    /// (a repeat does not need the fingerprint, and it is most of the answer's bytes) and what
    /// `validate` prints once its duplicate check has read it (an answer carries it only when asked).
    public var withoutFingerprint: ValidatePhotoOutput {
        details.fingerprint == nil ? self : updatingDetails { $0.fingerprint = nil }
    }
}
