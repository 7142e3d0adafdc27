import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking or CPU-heavy `work` on a thread of its own and awaits its result.
///
/// Not on `DispatchQueue.global()`: on Linux Swift's global executor runs on the same Dispatch
/// worker threads (two on a 2-core machine), so a blocking socket read or a long decode there
/// starves the tasks of the server under test, whose timers then fire tens of seconds late.
/// The thread runs at the lowest priority (nice 19, as do processes it starts): batch work such as
/// validating a folder of photos yields the CPU to the servers under test, whose clients time out
/// after 20 s without an answer.
/// Assertions belong after the await, in the test's own task.
package func offloaded<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            #if os(Linux)
            // On Linux the nice value is per thread: 0 names this thread, not the test process.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
            continuation.resume(with: Result { try work() })
        }
        // Decoders recurse and keep buffers on the stack: the size of a main thread's stack.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
