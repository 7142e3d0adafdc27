import NIOPosix
import Synchronization
import VipsDecoder

/// A fixed set of long-lived threads for libvips and pixel work, with bounded admission.
///
/// libvips keeps per-thread state, so its work must not run on threads that come and go; and a
/// server must refuse work it cannot start soon rather than queue it without bound. At most
/// `threadCount` jobs run and at most `queueLimit` more wait; further jobs fail at once with
/// `WorkerPoolError.overloaded`.
public final class ValidationWorkerPool: Sendable {
    /// Jobs that run at once.
    public let threadCount: Int
    /// Jobs that may wait for a thread.
    public let queueLimit: Int
    private let pool: NIOThreadPool
    private let admitted = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)

    /// Creates a pool of `threadCount` threads that admits `queueLimit` waiting jobs; call `start()`.
    public init(threadCount: Int, queueLimit: Int) {
        precondition(threadCount >= 1 && queueLimit >= 0, "a worker pool needs at least one thread")
        self.threadCount = threadCount
        self.queueLimit = queueLimit
        self.pool = NIOThreadPool(numberOfThreads: threadCount)
    }

    /// Starts the threads.
    public func start() {
        pool.start()
        running.store(true, ordering: .releasing)
    }

    /// Jobs admitted and not yet finished (running plus queued).
    public var inFlight: Int { admitted.load(ordering: .relaxed) }

    /// Jobs admitted but not yet running.
    public var queued: Int { max(0, inFlight - threadCount) }

    /// A place in the pool, held from admission until the work is done: a request takes one
    /// before it reads its upload, so bodies in memory are bounded by the pool's capacity too.
    public struct Slot: Sendable {
        let pool: NIOThreadPool

        /// Runs `body` on a worker thread and returns its result.
        public func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
            do {
                return try await pool.runIfActive(body)
            } catch is NIOThreadPoolError.ThreadPoolInactive {
                throw WorkerPoolError.notRunning
            }
        }
    }

    /// Takes a slot, runs `operation` with it, and gives the slot back.
    ///
    /// - Throws: `WorkerPoolError.overloaded` at once when `threadCount + queueLimit` slots are
    ///   taken, `WorkerPoolError.notRunning` when the pool is stopped, or what `operation` throws.
    public func withSlot<Result>(_ operation: (Slot) async throws -> Result) async throws -> Result {
        guard running.load(ordering: .acquiring) else { throw WorkerPoolError.notRunning }
        let capacity = threadCount + queueLimit
        let now = admitted.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        defer { admitted.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        guard now <= capacity else {
            throw WorkerPoolError.overloaded(inFlight: now - 1, capacity: capacity)
        }
        return try await operation(Slot(pool: pool))
    }

    /// Runs `body` on a worker thread in a slot of its own and returns its result.
    ///
    /// - Throws: `WorkerPoolError.overloaded` at once when the queue is full,
    ///   `WorkerPoolError.notRunning` when the pool is stopped, or what `body` throws.
    public func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withSlot { try await $0.run(body) }
    }

    /// Finishes the queued jobs, then stops the threads, releasing libvips' per-thread state.
    public func shutdown() async throws {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // Best effort: these jobs run after everything queued earlier and free libvips'
        // thread-local buffers on whichever threads pick them up before the threads exit.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threadCount {
                group.addTask { [pool] in
                    _ = try? await pool.runIfActive { VipsRuntime.releaseThreadResources() }
                }
            }
        }
        try await pool.shutdownGracefully()
    }
}
