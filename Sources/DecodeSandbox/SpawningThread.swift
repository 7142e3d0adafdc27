import Foundation

/// The one thread that starts every decode worker, and lives as long as the process.
///
/// A worker asks the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG`), and Linux takes
/// the *thread* that started it as that parent, not the process. Started from a thread that later
/// ends, a worker is killed with `SIGKILL` wherever it is: libdispatch ends a worker thread idle for
/// 5 s, so a worker started from a task (the first one, when the daemon or `validate` starts) was
/// killed 5 s into a long photo by a thread that had nothing to do with it (`decoder_crashed`,
/// "died of signal 9", issue 53). Started here, a worker dies with the process only.
final class SpawningThread: @unchecked Sendable {
    /// The process's spawning thread, started on first use.
    static let shared = SpawningThread()

    private let condition = NSCondition()
    /// Work waiting for the thread, run in order; guarded by `condition`.
    private var pending: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "pv-spawner"
        thread.start()
    }

    /// Runs `body` on the spawning thread and returns its result; the caller waits meanwhile.
    func run<Value>(_ body: @escaping () -> Value) -> Value {
        var value: Value?
        condition.lock()
        defer { condition.unlock() }
        pending.append { value = body() }
        condition.broadcast()
        // `value` is written with the lock held (`serve` runs the work under it).
        while value == nil { condition.wait() }
        return value!
    }

    private func serve() {
        condition.lock()
        while true {
            while pending.isEmpty { condition.wait() }
            // Run with the lock held: a spawn is short, and its caller waits for it anyway.
            pending.removeFirst()()
            condition.broadcast()
        }
    }
}
