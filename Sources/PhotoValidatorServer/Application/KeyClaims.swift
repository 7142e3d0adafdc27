/// Which keys are held and who waits for each: a request holds its upload's `Idempotency-Key`
/// from before it looks for a stored answer until its own answer is stored, and a repeat of it
/// waits, then finds that answer. A pure value: `IdempotencyClaims` keeps it under a lock, and its
/// tests drive it without threads.
struct KeyClaims<Waiter> {
    private var waiters: [String: [Waiter]] = [:]

    /// Keys held.
    var heldCount: Int { waiters.count }

    /// Requests waiting, over every key.
    var waitingCount: Int { waiters.values.reduce(0) { $0 + $1.count } }

    /// Takes `key` for the caller when it is free (true); else queues `waiter` behind its holder
    /// and earlier waiters (false).
    mutating func claim(_ key: String, waiter: Waiter) -> Bool {
        guard waiters[key] != nil else {
            waiters[key] = []
            return true
        }
        waiters[key]!.append(waiter)
        return false
    }

    /// Gives `key` up: to its first waiter, returned for the caller to wake (the key stays held,
    /// now by it), or frees the key when none waits.
    mutating func release(_ key: String) -> Waiter? {
        guard var queue = waiters[key] else { return nil }
        guard !queue.isEmpty else {
            waiters[key] = nil
            return nil
        }
        let next = queue.removeFirst()
        waiters[key] = queue
        return next
    }
}
