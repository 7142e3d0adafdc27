import Synchronization

/// One request at a time per `Idempotency-Key`: identical uploads sent at once (a client's
/// retries racing its first try) are taken one after the other, so the first is validated and
/// answered and the others find its stored answer; two different photos racing one key end with
/// the second's 422, having remembered nothing.
final class IdempotencyClaims: Sendable {
    private let claims = Mutex(KeyClaims<CheckedContinuation<Void, Never>>())

    /// A held key, given up by `release()` (exactly once, when the request's answer is stored or
    /// it failed).
    struct Claim: Sendable {
        fileprivate let owner: IdempotencyClaims
        fileprivate let key: String

        /// Gives the key to the next waiting request, if any.
        func release() {
            owner.claims.withLock { $0.release(key) }?.resume()
        }
    }

    /// Takes `key` in `projectID`, waiting while another request holds it.
    func claim(_ key: String, in projectID: String) async -> Claim {
        let name = projectID + "\u{0}" + key
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if claims.withLock({ $0.claim(name, waiter: continuation) }) { continuation.resume() }
        }
        return Claim(owner: self, key: name)
    }
}
