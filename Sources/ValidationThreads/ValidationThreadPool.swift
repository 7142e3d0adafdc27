import Foundation
import Synchronization

/// A set of long-lived threads for libvips and pixel work, with bounded admission and deadlines
/// that hold while a job runs.
///
/// libvips keeps per-thread state, so its work must not run on threads that come and go; and a
/// server must refuse work it cannot start soon rather than queue it without bound. At most
/// `threadCount` jobs run and at most `queueLimit` more wait; further jobs fail at once with
/// `ThreadPoolError.overloaded`.
///
/// Jobs are queued per caller (an authenticated user or token, an address: the caller names it)
/// and, within a caller, per project, and served in turn (`FairQueue`), so a caller sending many
/// photos, to one project or to a new project each, delays another's by at most one job per caller
/// ahead of it. When the pool is full, a caller holding fewer places than the busiest one still
/// gets in: the busiest caller's newest waiting job is refused `overloaded` to make room; within
/// one caller, its busiest project gives way to its quiet one the same way (`AdmissionLedger`).
///
/// A job stuck in C code cannot be stopped from inside the process. When its deadline passes the
/// caller is answered `ThreadPoolError.timedOut` at once; the thread stays with the job and counts
/// as *overdue*, and a replacement thread is started (up to `maximumReplacements` at a time) so
/// that the pool keeps its capacity. Shutdown does not wait for overdue jobs. `health` reports how
/// long the oldest one has been overdue, so a supervisor can restart a process that collects them.
///
/// Written by hand because NIO's `NIOThreadPool` can neither time out a running job nor replace
/// a thread that never comes back.
package final class ValidationThreadPool: Sendable {
    /// Jobs that run at once.
    package let threadCount: Int
    /// Jobs that may wait for a thread.
    package let queueLimit: Int
    /// Threads that may be started at a time to stand in for threads held by overdue jobs.
    package let maximumReplacements: Int
    /// The deadline of a job run without one.
    package let defaultTimeout: Duration
    private let condition = NSCondition()
    /// The pool's decisions (`ValidationThreadPool+StateMachine.swift`), guarded by `condition`.
    nonisolated(unsafe) private var state: StateMachine
    private let running = Atomic<Bool>(false)
    /// Set by `shutdown()`: from then on no job is admitted (before `start()` jobs are queued).
    private let stopped = Atomic<Bool>(false)
    private let nextJobID = Atomic<Int>(0)
    /// How often the watchdog looks for expired deadlines.
    private let tick: Duration
    /// Run by each thread as it ends: the decoder's per-thread buffers are freed by whoever owns
    /// the decoder, so that this module links no C library.
    private let threadExit: @Sendable () -> Void

    /// A pool of `threadCount` threads that admits `queueLimit` waiting jobs; call `start()`.
    ///
    /// - Parameters:
    ///   - spareThreads: threads beyond `threadCount` for a job of a caller with none running, or of
    ///     another project when one project holds every thread, so that one caller's or project's
    ///     long decodes on every thread do not hold up another's (default: none).
    ///   - maximumReplacements: threads that may stand in for overdue ones (default: `threadCount`).
    ///   - defaultTimeout: the deadline of jobs run without one.
    ///   - tick: how often deadlines are checked (their resolution).
    ///   - threadExit: run on each thread as it ends, such as `PhotoValidator.releaseThreadResources`
    ///     when jobs decode in this process.
    package init(
        threadCount: Int, spareThreads: Int = 0, queueLimit: Int, maximumReplacements: Int? = nil, defaultTimeout: Duration = .seconds(30), tick: Duration = .milliseconds(50),
        threadExit: @escaping @Sendable () -> Void = {}
    ) {
        precondition(threadCount >= 1 && queueLimit >= 0, "a worker pool needs at least one thread")
        self.threadCount = threadCount
        self.queueLimit = queueLimit
        self.maximumReplacements = max(0, maximumReplacements ?? threadCount)
        self.defaultTimeout = defaultTimeout
        self.tick = tick
        self.threadExit = threadExit
        self.state = StateMachine(
            threadCount: threadCount, spareThreads: spareThreads, queueLimit: queueLimit, maximumReplacements: self.maximumReplacements, defaultTimeout: defaultTimeout
        )
    }

    /// Starts the threads and the watchdog (once; not after `shutdown()`).
    package func start() {
        guard !stopped.load(ordering: .acquiring), !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let threads = condition.withLock { state.start() }
        for _ in 0..<threads { startThread() }
        let watchdog = Thread { [self] in watch() }
        watchdog.name = "pv-watchdog"
        watchdog.start()
    }

    /// Jobs admitted and not yet finished or timed out (running plus queued).
    package var inFlight: Int { condition.withLock { state.admitted.total } }

    /// Jobs admitted but not yet running.
    package var queued: Int { condition.withLock { state.queue.count } }

    /// Places `caller` holds (admitted and not yet finished), over all its projects.
    package func inFlight(of caller: String) -> Int { condition.withLock { state.admitted.places(of: caller) } }

    /// True when `caller` already has jobs waiting and another would be refused `overloaded` now
    /// whatever its project: the pool is full (its places taken or promised) and no one would give
    /// way to it. A server asks before reading a request's body (`ticket(for:waitingAtMost:poll:)`),
    /// so a caller flooding a full pool costs it no body it would refuse anyway; a caller with
    /// nothing waiting is never held back (the pool may have room by the time a slow body is in).
    package func refusesNow(caller: String) -> Bool {
        condition.withLock { state.refusesNow(caller: caller) }
    }

    /// A place promised to a request of `caller` before its body is read, so that the requests held
    /// back go on one for each place that frees; give it to `withSlot(for:ticket:_:)`, and `settle`
    /// it when the request ends.
    package struct Ticket: Sendable {
        let id: Int
    }

    /// Waits, body unread, while a request of `caller` would be refused whatever its project
    /// (`refusesNow(caller:)`, with places already promised counted as taken), looking again every
    /// `poll`, for at most `wait`; then promises it a place. Nil when it is still refused after
    /// `wait`, or the task is cancelled: answer 503 without reading the body.
    ///
    /// A caller flooding a full pool is so held to the pace at which its places free, each of its
    /// connections waiting unread rather than sending body after body to be refused: what the
    /// flood costs this host (bodies, connections, the flooding client itself) stays that of the
    /// work it is given.
    ///
    /// A caller has at most `threadCount + queueLimit` requests held at once; a request past that
    /// is refused at once (nil), so a flood of connections cannot all be kept open waiting.
    package func ticket(for caller: String, waitingAtMost wait: Duration, poll: Duration = .milliseconds(20)) async -> Ticket? {
        let giveUp = ContinuousClock.now + wait
        var holding = false
        defer {
            if holding { condition.withLock { state.stopHolding(caller) } }
        }
        while true {
            let ticket: Ticket? = condition.withLock {
                guard !state.refusesNow(caller: caller) else {
                    if !holding { holding = state.hold(caller) }
                    return nil
                }
                let ticket = Ticket(id: nextJobID.wrappingAdd(1, ordering: .relaxed).newValue)
                state.promise(ticket.id, to: caller)
                return ticket
            }
            if let ticket { return ticket }
            let now = ContinuousClock.now
            guard holding, now < giveUp, (try? await Task.sleep(for: min(poll, giveUp - now))) != nil else { return nil }
        }
    }

    /// Ends `ticket`'s promise if `withSlot(for:ticket:_:)` has not (the request ended before asking for its place).
    package func settle(_ ticket: Ticket) {
        condition.withLock { state.settle(ticket.id) }
    }

    /// Overdue jobs, their threads, and how long the oldest has been overdue.
    package var health: ThreadPoolHealth {
        condition.withLock { state.health(now: .now) }
    }

    /// A place in the pool, held from admission until the work is done.
    package struct Slot: Sendable {
        let pool: ValidationThreadPool
        /// Whose job runs in it: jobs queue per caller and project and are served in turn.
        let key: FairKey
        /// What its jobs cost, as the photo's header tells (`Job.cost`), when known.
        let cost: Int?

        /// Runs `body` on a worker thread and returns its result, or throws
        /// `ThreadPoolError.timedOut` as soon as `deadline` passes, whether the job is still
        /// waiting or already running.
        package func run<Result: Sendable>(deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
            try await pool.submit(deadline: deadline, runLimit: nil, key: key, cost: cost) { _ in try body() }
        }

        /// Runs `body` on a worker thread with the job's deadline (the earlier of `deadline` and
        /// `runLimit` after it starts, the pool's default timeout when both are nil), for work that
        /// can end itself before it (a decode in a worker process, which is killed), and returns
        /// its result, or throws `ThreadPoolError.timedOut` as soon as that deadline passes.
        package func run<Result: Sendable>(
            deadline: ContinuousClock.Instant? = nil, runLimit: Duration? = nil, _ body: @escaping @Sendable (_ deadline: ContinuousClock.Instant) throws -> Result
        ) async throws -> Result {
            try await pool.submit(deadline: deadline, runLimit: deadline == nil ? runLimit ?? pool.defaultTimeout : runLimit, key: key, cost: cost, body)
        }

        /// Runs `body` on a worker thread and returns its result, or throws
        /// `ThreadPoolError.timedOut` once it has run for `runLimit` (the pool's default timeout
        /// when nil); time spent waiting for a thread does not count.
        package func run<Result: Sendable>(runLimit: Duration? = nil, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
            try await pool.submit(deadline: nil, runLimit: runLimit ?? pool.defaultTimeout, key: key, cost: cost) { _ in try body() }
        }
    }

    /// Takes a slot for `key`, runs `operation` with it, and gives the slot back; `ticket`, the
    /// place promised to the request before its body was read, ends here either way. `cost`, what
    /// the slot's jobs cost when known (`Job.cost`), lets a spare thread prefer the cheapest.
    ///
    /// - Throws: `ThreadPoolError.overloaded` at once when `threadCount + queueLimit` slots are
    ///   taken and no other caller (nor, within `key`'s caller, another project) holds two places
    ///   more than `key`'s with a job still waiting, `ThreadPoolError.notRunning` when the pool is
    ///   stopped, or what `operation` throws.
    package func withSlot<Result>(for key: FairKey = FairKey(caller: ""), ticket: Ticket? = nil, cost: Int? = nil,
                                  _ operation: (Slot) async throws -> Result) async throws -> Result {
        guard !stopped.load(ordering: .acquiring) else {
            if let ticket { settle(ticket) }
            throw ThreadPoolError.notRunning
        }
        let capacity = threadCount + queueLimit
        switch condition.withLock({ state.admit(key, ticket: ticket?.id) }) {
        case .refused:
            throw ThreadPoolError.overloaded(inFlight: capacity, capacity: capacity)
        case .admitted(let evicted):
            evicted?.refuse(ThreadPoolError.overloaded(inFlight: capacity, capacity: capacity))
        }
        defer {
            condition.withLock { state.release(key) }
        }
        return try await operation(Slot(pool: self, key: key, cost: cost))
    }

    /// Runs `body` on a worker thread in a slot of its own and returns its result.
    ///
    /// - Throws: `ThreadPoolError.overloaded` at once when the queue is full,
    ///   `ThreadPoolError.notRunning` when the pool is stopped, `ThreadPoolError.timedOut` once
    ///   it has run for `runLimit` (the default timeout when nil), or what `body` throws.
    package func run<Result: Sendable>(runLimit: Duration? = nil, _ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withSlot { try await $0.run(runLimit: runLimit, body) }
    }

    /// Runs `body` on a worker thread in a slot of its own with the job's deadline (`runLimit`
    /// after it starts, the default timeout when nil), for work that can end itself before it,
    /// and returns its result; throws as `run(runLimit:_:)` does.
    package func run<Result: Sendable>(
        runLimit: Duration? = nil, _ body: @escaping @Sendable (_ deadline: ContinuousClock.Instant) throws -> Result
    ) async throws -> Result {
        try await withSlot { try await $0.run(runLimit: runLimit, body) }
    }

    /// Stops admitting, finishes the queued and running jobs (overdue ones excepted) unless the
    /// calling task is cancelled first, then lets the threads go, each running `threadExit` (which frees
    /// the decoder's per-thread state). Threads held by overdue jobs are left to the process's exit.
    package func shutdown() async {
        stopped.store(true, ordering: .releasing)
        // A pool that never started has no thread to run what was queued: those jobs end now.
        let stranded = condition.withLock { state.stopAccepting(started: running.load(ordering: .acquiring)) }
        stranded.forEach { $0.expire() }
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // Cancellation (the service group's grace period running out) ends the wait too.
        while !Task.isCancelled, condition.withLock({ !state.isDrained }) {
            try? await Task.sleep(for: .milliseconds(5))
        }
        condition.withLock {
            state.stop()
            condition.broadcast()
        }
    }

    // MARK: - Jobs

    private func submit<Result: Sendable>(
        deadline: ContinuousClock.Instant?, runLimit: Duration?, key: FairKey, cost: Int?, _ body: @escaping @Sendable (ContinuousClock.Instant) throws -> Result
    ) async throws -> Result {
        let completion = JobCompletion<Result>()
        let id = nextJobID.wrappingAdd(1, ordering: .relaxed).newValue
        let started = ContinuousClock.now
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                completion.install(continuation)
                var job = Job(
                    id: id,
                    deadline: deadline,
                    runLimit: runLimit,
                    work: { deadline in completion.resume(with: Swift.Result { try body(deadline) }) },
                    expire: { completion.resume(with: .failure(ThreadPoolError.timedOut(after: ContinuousClock.now - started))) },
                    refuse: { completion.resume(with: .failure($0)) }
                )
                job.cost = cost
                let accepted = condition.withLock {
                    guard state.enqueue(job, for: key) else { return false }
                    condition.signal()
                    return true
                }
                if !accepted {
                    completion.resume(with: .failure(ThreadPoolError.notRunning))
                }
            }
        } onCancel: {
            completion.resume(with: .failure(CancellationError()))
        }
    }

    /// Starts one thread; the state machine has counted it.
    private func startThread() {
        let thread = Thread { [self] in work() }
        thread.name = "pv-worker"
        // Decoders recurse little, but libheif and libde265 like room.
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func work() {
        defer { threadExit() }
        condition.lock()
        while true {
            switch state.next(now: .now) {
            case .wait:
                condition.wait()
            case .exit:
                condition.unlock()
                return
            case .expire(let job):
                condition.unlock()
                job.expire()
                condition.lock()
            case .run(let job, let deadline):
                // Taking this job may let a spare thread take another (`hasWorkForAFreeThread`):
                // only a thread that takes a job wakes the next, so the chain ends by itself.
                if state.hasWorkForAFreeThread { condition.signal() }
                condition.unlock()
                job.work(deadline)
                condition.lock()
                state.finish(job.id)
            }
        }
    }

    private func watch() {
        while true {
            Thread.sleep(forTimeInterval: tick / .seconds(1))
            let expiry = condition.withLock {
                let expiry = state.tick(now: .now)
                // An overdue job no longer holds a thread's place: a sleeping thread may now run a waiting job.
                if !expiry.overdue.isEmpty, state.hasWorkForAFreeThread { condition.broadcast() }
                return expiry
            }
            for _ in 0..<expiry.threadsToStart { startThread() }
            for job in expiry.expired { job.expire() }
            for job in expiry.overdue { job.expire() }
            if expiry.stop { return }
        }
    }

    /// A job of the queue: its limits and what answers it.
    struct Job: @unchecked Sendable {
        /// Unique within the pool.
        let id: Int
        /// The latest instant the answer is wanted, waiting included (nil: no such limit).
        let deadline: ContinuousClock.Instant?
        /// The longest the job may run once a thread takes it (nil: no such limit).
        let runLimit: Duration?
        /// Runs the job with its deadline and answers it.
        let work: (ContinuousClock.Instant) -> Void
        /// Answers the job `timedOut`.
        let expire: @Sendable () -> Void
        /// Ends a waiting job with an error (it gave its place to another caller's).
        let refuse: @Sendable (any Error) -> Void
        /// Whose job it is: set as it is queued (`StateMachine.enqueue(_:for:)`).
        var key = FairKey(caller: "")
        /// What it costs, in any unit that orders jobs by the time they take (the daemon: the
        /// photo's estimated decode milliseconds from its header, `DecodeCost`), nil when unknown.
        var cost: Int?
    }
}
