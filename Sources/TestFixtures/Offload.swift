import Dispatch

/// Runs blocking or CPU-heavy `work` on a Dispatch thread and awaits its result, so that tests
/// decoding many photos do not hold Swift's cooperative threads (two on a 2-core machine) while
/// other tests' servers and timers wait for them. Assertions belong after the await, in the test's
/// own task.
public func offloaded<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
