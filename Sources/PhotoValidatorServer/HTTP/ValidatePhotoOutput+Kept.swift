import PhotoValidation

extension ValidatePhotoOutput {
    /// This answer without `details.fingerprint`: what the outbox keeps for an `Idempotency-Key`,
    /// since a repeat does not need the fingerprint and it is most of the answer's bytes.
    var withoutFingerprint: ValidatePhotoOutput {
        updatingDetails { $0.fingerprint = nil }
    }
}
