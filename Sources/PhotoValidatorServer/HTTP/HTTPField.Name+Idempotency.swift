import HTTPTypes

extension HTTPField.Name {
    /// `Idempotency-Key`: the gateway's request id, so a retried upload is answered once.
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// `Idempotent-Replayed: true` on an answer given again for a repeated key.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}
