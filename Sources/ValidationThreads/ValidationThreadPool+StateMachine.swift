extension ValidationThreadPool {
    /// The pool's decisions apart from its threads, its lock and its clock: which job is admitted
    /// or gives way, which a free thread runs and until when, which expire, when a stand-in thread
    /// starts and when a thread ends. Each event is a method that returns what the pool must do
    /// (an action); the pool holds one under its lock and carries the actions out. Pure, with the
    /// time a parameter, so its tests run without threads or sleeps, as AsyncHTTPClient tests
    /// `HTTPConnectionPool.StateMachine`.
    struct StateMachine {
        /// What `admit(_:)` decided.
        enum Admission {
            /// A place is taken; `evicted`, a waiting job of a busier caller or project, gave way
            /// to it and is refused `overloaded`.
            case admitted(evicted: Job?)
            /// The pool is full and no one gives way: refused `overloaded`.
            case refused
        }

        /// What a free thread does next (`next(now:)`).
        enum ThreadAction {
            /// Runs the job until `deadline`, then reports `finish(_:)`.
            case run(Job, deadline: ContinuousClock.Instant)
            /// Answers the job `timedOut` without running it (its deadline passed while it waited), then asks again.
            case expire(Job)
            /// Waits to be signalled, then asks again.
            case wait
            /// Ends the thread (running `threadExit`): the pool stops, or a stand-in is no longer needed.
            case exit
        }

        /// What a watchdog tick found (`tick(now:)`).
        struct Expiry {
            /// Waiting jobs whose deadline passed: answered `timedOut`, never run.
            var expired: [Job] = []
            /// Running jobs past their deadline: answered `timedOut` while their threads stay with them.
            var overdue: [Job] = []
            /// Stand-in threads to start for the overdue ones.
            var threadsToStart = 0
            /// True once the pool stops: the watchdog ends.
            var stop = false
        }

        /// A job on a thread, until its deadline and past it (overdue).
        struct RunningJob {
            /// The job, answered `timedOut` when it becomes overdue.
            let job: Job
            /// When it becomes overdue.
            let deadline: ContinuousClock.Instant
            /// Past its deadline and answered; its thread is still with it.
            var overdue = false
        }

        /// Jobs that run at once.
        let threadCount: Int
        /// Threads beyond `threadCount` that run, while jobs hold every thread, only a job of a
        /// caller with none running, or of another project when one project holds them all
        /// (`sparing(_:)`): jobs are not pre-empted, so without them a caller or project whose long
        /// decodes hold every thread would make another's short one wait for the end of one of them.
        let spareThreads: Int
        /// Jobs that may wait for a thread.
        let queueLimit: Int
        /// Stand-in threads that may run at a time for threads held by overdue jobs.
        let maximumReplacements: Int
        /// The run limit of a job without a deadline or run limit of its own.
        let defaultTimeout: Duration

        /// The jobs waiting, per caller and project, served in turn.
        private(set) var queue = FairQueue<Job>()
        /// Places admitted per caller and project, and in all.
        private(set) var admitted = AdmissionLedger()
        /// The jobs on threads, by id.
        private(set) var running: [Int: RunningJob] = [:]
        // Jobs are queued from the start, so work submitted before `start()` (a request that
        // races the worker service's start) waits for the threads instead of being refused.
        private(set) var accepting = true
        private(set) var stopping = false
        /// Threads alive, stand-ins included.
        private(set) var threads = 0
        private var replacements = 0
        private var surplusThreads = 0
        /// Jobs that ever became overdue.
        private(set) var overdueTotal = 0

        /// A pool of `threadCount` threads admitting `queueLimit` waiting jobs.
        init(threadCount: Int, spareThreads: Int = 0, queueLimit: Int, maximumReplacements: Int, defaultTimeout: Duration) {
            self.threadCount = threadCount
            self.spareThreads = max(0, spareThreads)
            self.queueLimit = queueLimit
            self.maximumReplacements = maximumReplacements
            self.defaultTimeout = defaultTimeout
        }

        /// Places in all: running plus waiting.
        var capacity: Int { threadCount + queueLimit }

        /// True when nothing is waiting and every running job is overdue: what shutdown waits for.
        var isDrained: Bool { queue.isEmpty && !running.values.contains { !$0.overdue } }

        /// The pool starts: returns the threads to start (the spare ones included).
        mutating func start() -> Int {
            threads += threadCount + spareThreads
            return threadCount + spareThreads
        }

        /// A place asked for `key`; see `ValidationThreadPool.withSlot(for:_:)` for who gives way.
        /// The place promised to the request as `ticket` (`promise(_:to:)`), if any, becomes this
        /// place, or ends with the refusal.
        mutating func admit(_ key: FairKey, ticket: Int? = nil) -> Admission {
            if let ticket { admitted.settle(ticket) }
            var evicted: Job?
            if admitted.total >= capacity {
                switch admitted.giver(for: key, queue: queue) {
                case .caller(let caller): evicted = queue.popLast(of: caller)
                case .project(let project): evicted = queue.popLast(of: project)
                case nil: break
                }
                guard evicted != nil else { return .refused }
            }
            admitted.take(key)
            return .admitted(evicted: evicted)
        }

        /// `key`'s place is given back.
        mutating func release(_ key: FairKey) {
            admitted.release(key)
        }

        /// True when a job of `caller`, which already has jobs waiting, would be refused now
        /// whatever its project (`ValidationThreadPool.refusesNow(caller:)`).
        func refusesNow(caller: String) -> Bool {
            admitted.holdsBack(caller, capacity: capacity, queue: queue)
        }

        /// A request of `caller` starts waiting, body unread, for a place; false when `caller`
        /// already has `capacity` requests waiting so (refuse it at once).
        mutating func hold(_ caller: String) -> Bool {
            admitted.hold(caller, limit: capacity)
        }

        /// A request of `caller` held back stops waiting.
        mutating func stopHolding(_ caller: String) {
            admitted.stopHolding(caller)
        }

        /// A place is promised to request `ticket` of `caller` before its body is read.
        mutating func promise(_ ticket: Int, to caller: String) {
            admitted.promise(ticket, to: caller)
        }

        /// Request `ticket`'s promise ends, if `admit(_:ticket:)` has not taken it.
        mutating func settle(_ ticket: Int) {
            _ = admitted.settle(ticket)
        }

        /// A job of an admitted place waits for a thread; false when the pool no longer accepts
        /// work (answer it `notRunning`). When true, signal a thread.
        mutating func enqueue(_ job: Job, for key: FairKey) -> Bool {
            guard accepting else { return false }
            var job = job
            job.key = key
            queue.append(job, for: key)
            return true
        }

        /// A thread is free at `now`: what it does next.
        mutating func next(now: ContinuousClock.Instant) -> ThreadAction {
            if stopping || (queue.isEmpty && surplusThreads > 0) {
                threads -= 1
                surplusThreads = max(0, surplusThreads - 1)
                return .exit
            }
            // A free thread goes to the caller with the fewest jobs under way (`FairQueue.popFirst(placesHeld:)`);
            // a spare one to the cheapest job it may take (`FreeThreadChoice.spare`).
            let held = admitted
            let picked: Job? = switch freeThreadChoice {
            case nil: nil
            case .any: queue.popFirst(placesHeld: held.places(of:), selecting: .any)
            case .spare(let selection, cheaperThan: nil): queue.popFirst(placesHeld: held.places(of:), selecting: selection)
            case .spare(let selection, cheaperThan: let ceiling?): queue.popCheapest(selection, below: ceiling, cost: \.cost)
            }
            guard let job = picked else { return .wait }
            if let deadline = job.deadline, now >= deadline {
                return .expire(job)
            }
            let deadline = [job.deadline, job.runLimit.map { now + $0 }].compactMap { $0 }.min() ?? now + defaultTimeout
            running[job.id] = RunningJob(job: job, deadline: deadline)
            return .run(job, deadline: deadline)
        }

        /// What a free thread may take.
        enum FreeThreadChoice: Equatable {
            /// Any waiting job, in the fair queue's order.
            case any
            /// A spare thread's pick among the jobs `selection` allows (`sparing(_:)`): the cheapest
            /// whose cost is below `cheaperThan`, the cheapest on-time job running, so the spare
            /// never takes a photo as costly as those holding the threads and stays free for a
            /// cheap one (issue 63, finding 4: a crowd of identities sending costly photos took it
            /// as well as every worker). Nil when a running job's cost is unknown: the first job
            /// `selection` allows in the fair queue's order.
            case spare(QueueSelection, cheaperThan: Int?)
        }

        /// Which jobs a free thread may take now, nil when none: any while fewer on-time jobs than
        /// threads run (overdue ones have stand-ins, so they no longer count), a spare thread's
        /// pick while the spare threads are not all taken.
        var freeThreadChoice: FreeThreadChoice? {
            // Counted first: the keys are gathered only when a spare thread is choosing.
            let onTime = running.values.reduce(0) { $1.overdue ? $0 : $0 + 1 }
            if onTime < threadCount { return .any }
            guard onTime < threadCount + spareThreads else { return nil }
            let jobs = running.values.filter { !$0.overdue }.map(\.job)
            let costs = jobs.map(\.cost)
            return .spare(Self.sparing(jobs.map(\.key)), cheaperThan: costs.contains(nil) ? nil : costs.compactMap { $0 }.min())
        }

        /// True when a waiting job could run on a free thread now. Which jobs may run depends on
        /// which run, so a thread that takes a job (or a job that becomes overdue) can make a job
        /// runnable that no enqueue will signal: the pool wakes another thread when this is true.
        var hasWorkForAFreeThread: Bool {
            switch freeThreadChoice {
            case nil: false
            case .any: queue.contains(.any)
            case .spare(let selection, cheaperThan: nil): queue.contains(selection)
            case .spare(let selection, cheaperThan: let ceiling?): queue.containsCheaper(selection, than: ceiling, cost: \.cost)
            }
        }

        /// Which jobs a spare thread may take while the jobs of `running` hold every thread: a
        /// caller with no job running, or, when one project holds them all, another project of
        /// its caller. So neither one caller (whatever projects it names) nor one project holds
        /// every thread, and a caller spreading its photos over new projects gets no more threads
        /// by it than it had.
        static func sparing(_ running: [FairKey]) -> QueueSelection {
            let projects = Set(running)
            if projects.count == 1, let only = projects.first { return .projects(otherThan: only) }
            return .callers(notIn: Set(running.map(\.caller)))
        }

        /// The job `id` returned on its thread. A job that had become overdue had been replaced
        /// by a stand-in, so one thread is now too many: the next free one ends (`next(now:)`).
        mutating func finish(_ id: Int) {
            if running.removeValue(forKey: id)?.overdue == true {
                replacements -= 1
                surplusThreads += 1
            }
        }

        /// The watchdog looks at `now`: waiting jobs past their deadline leave the queue, running
        /// ones past theirs become overdue, each with a stand-in thread while fewer than
        /// `maximumReplacements` run.
        mutating func tick(now: ContinuousClock.Instant) -> Expiry {
            var expiry = Expiry()
            if stopping {
                expiry.stop = true
                return expiry
            }
            expiry.expired = queue.removeAll { job in job.deadline.map { now >= $0 } ?? false }
            // By id, so the order of the answers does not depend on a dictionary's.
            for id in running.keys.sorted() where !running[id]!.overdue && now >= running[id]!.deadline {
                running[id]!.overdue = true
                overdueTotal += 1
                expiry.overdue.append(running[id]!.job)
                if replacements < maximumReplacements {
                    replacements += 1
                    threads += 1
                    expiry.threadsToStart += 1
                }
            }
            return expiry
        }

        /// Stops admitting work. A pool that never started (`started` false) has no thread to run
        /// what was queued: those jobs are returned, to be answered now.
        mutating func stopAccepting(started: Bool) -> [Job] {
            accepting = false
            return started ? [] : queue.removeAllItems()
        }

        /// Lets the threads go once the queue is drained: each ends at its next `next(now:)`, and the watchdog at its next tick.
        mutating func stop() {
            stopping = true
        }

        /// Overdue jobs, threads, and how long the oldest has been overdue at `now`.
        func health(now: ContinuousClock.Instant) -> ThreadPoolHealth {
            let overdue = running.values.filter(\.overdue)
            return ThreadPoolHealth(
                overdueJobs: overdue.count,
                longestOverdue: overdue.map { now - $0.deadline }.max(),
                threads: threads,
                overdueTotal: overdueTotal
            )
        }
    }
}
