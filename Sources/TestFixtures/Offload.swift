import Foundation

/// Runs blocking or CPU-heavy `work` on a thread of its own and awaits its result.
///
/// Not on `DispatchQueue.global()`: on Linux Swift's global executor runs on the same Dispatch
/// worker threads (two on a 2-core machine), so a blocking socket read or a long decode there
/// starves the tasks of the server under test, whose timers then fire tens of seconds late.
/// Assertions belong after the await, in the test's own task.
public func offloaded<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        // Decoders recurse and keep buffers on the stack: the size of a main thread's stack.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
