import Synchronization

/// Caps provider calls in flight. A caller beyond the cap waits, first come first served, for at
/// most a given time, then gets no place (and the content policy applies).
public final class ConcurrencyLimiter: Sendable {
    private struct Storage {
        var available: Int
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var order: [UInt64] = []
        var nextID: UInt64 = 0
    }

    /// Places in total.
    public let limit: Int
    private let storage: Mutex<Storage>

    /// A limiter with `limit` places.
    public init(limit: Int) {
        precondition(limit >= 1, "a limiter needs at least one place")
        self.limit = limit
        self.storage = Mutex(Storage(available: limit))
    }

    /// Places taken now.
    public var inUse: Int { storage.withLock { limit - $0.available } }
    /// Callers waiting now.
    public var waiting: Int { storage.withLock { $0.waiters.count } }

    /// Takes a place, waiting at most `wait` (and not past cancellation); true when one was taken,
    /// in which case `release()` must follow.
    public func acquire(waitingAtMost wait: Duration) async -> Bool {
        let id = storage.withLock { storage -> UInt64? in
            if storage.available > 0 {
                storage.available -= 1
                return nil
            }
            storage.nextID += 1
            return storage.nextID
        }
        guard let id else { return true }
        guard wait > .zero else { return false }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate = storage.withLock { storage -> Bool? in
                    if storage.available > 0 {
                        storage.available -= 1
                        return true
                    }
                    storage.waiters[id] = continuation
                    storage.order.append(id)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                Task { [self] in
                    try? await Task.sleep(for: wait)
                    expire(id)
                }
            }
        } onCancel: {
            expire(id)
        }
    }

    /// Gives a place back, to the longest waiter if there is one.
    public func release() {
        let next = storage.withLock { storage -> CheckedContinuation<Bool, Never>? in
            while !storage.order.isEmpty {
                let id = storage.order.removeFirst()
                if let waiter = storage.waiters.removeValue(forKey: id) { return waiter }
            }
            storage.available += 1
            return nil
        }
        next?.resume(returning: true)
    }

    private func expire(_ id: UInt64) {
        let waiter = storage.withLock { storage -> CheckedContinuation<Bool, Never>? in
            guard let waiter = storage.waiters.removeValue(forKey: id) else { return nil }
            storage.order.removeAll { $0 == id }
            return waiter
        }
        waiter?.resume(returning: false)
    }
}
