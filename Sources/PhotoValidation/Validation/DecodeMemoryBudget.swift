import Foundation

/// Bounds the memory that decodes in flight may hold, so peak memory follows configuration rather
/// than traffic: a decode waits until its estimated bytes fit beside the others.
///
/// A decode larger than the whole budget still runs, alone. `acquire` blocks the calling thread,
/// so call it only from the worker pool's dedicated threads.
public final class DecodeMemoryBudget: Sendable {
    /// The total bytes decodes may hold at once.
    public let limit: Int
    private let condition = NSCondition()
    nonisolated(unsafe) private var inUse = 0

    /// A budget of `limit` bytes.
    public init(limit: Int) {
        precondition(limit > 0, "a memory budget must be positive")
        self.limit = limit
    }

    /// Bytes reserved right now.
    public var reserved: Int {
        condition.withLock { inUse }
    }

    /// Waits until `bytes` fit (or nothing else holds memory), reserves them and returns the
    /// amount reserved, to pass to `release`.
    public func acquire(_ bytes: Int) -> Int {
        let amount = max(0, bytes)
        condition.lock()
        defer { condition.unlock() }
        while inUse > 0 && inUse + amount > limit {
            condition.wait()
        }
        inUse += amount
        return amount
    }

    /// Returns bytes reserved by `acquire`.
    public func release(_ amount: Int) {
        condition.lock()
        inUse -= amount
        condition.unlock()
        condition.broadcast()
    }
}
