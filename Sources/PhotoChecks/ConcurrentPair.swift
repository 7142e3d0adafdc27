import Dispatch
import Synchronization

/// Two independent computations of one photo run at the same time: on the calling thread and
/// one more, for a photo that finds a core no other photo holds.
enum ConcurrentPair {
    /// The results of `first` and `second`, computed at the same time.
    static func run<First: Sendable, Second: Sendable>(_ first: () -> First, _ second: () -> Second) -> (First, Second) {
        let firstResult = Mutex<First?>(nil)
        let secondResult = Mutex<Second?>(nil)
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                // Each closure runs exactly once, on one of the two iterations.
                nonisolated(unsafe) let first = first, second = second
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        let value = first()
                        firstResult.withLock { $0 = value }
                    } else {
                        let value = second()
                        secondResult.withLock { $0 = value }
                    }
                }
            }
        }
        return (firstResult.withLock { $0! }, secondResult.withLock { $0! })
    }
}
