extension SandboxedDecoding {
    /// The worker supervisor's decisions apart from processes, locks and the clock: which worker a
    /// photo goes to (an idle one, or a new one started within the photo's time), until when it may
    /// take, on how many threads it decodes, what becomes of the worker after its answer (kept
    /// idle, stopped because it retires or idle ones are enough, or stopped and counted because it
    /// crashed, ran out of time or memory), and which workers shutdown stops. Each event is a
    /// method that returns what `SandboxedDecoding` must do; it holds one under its lock and
    /// carries the actions out. Pure, generic over what stands for a worker and with the time a
    /// parameter, so its tests run without processes, threads or sleeps, as AsyncHTTPClient tests
    /// `HTTPConnectionPool.StateMachine` (and `ValidationThreadPool.StateMachine` is tested).
    struct Supervisor<Worker> {
        /// Where a photo's request goes (`checkOut(deadline:now:)`).
        enum CheckOut {
            /// To this idle worker; one found ended (killed from outside while idle) is dropped,
            /// not blamed on the photo: check out again.
            case reuse(Worker)
            /// To a new worker, which must get ready within `limit`; if it cannot, the photo ends
            /// as `startFailed(deadline:now:)` says.
            case start(limit: Duration)
        }

        /// How a worker's exchange ended (`checkIn(_:after:)`).
        enum Outcome: Equatable {
            /// It answered and can take another photo.
            case answered
            /// It answered and exits now: it has spent most of its CPU allowance.
            case retiring
            /// It crashed, ran out of time or reached its memory limit, and was killed.
            case ended(WorkerEnd.Reason)
        }

        /// What becomes of a worker after its exchange.
        enum Disposal: Equatable {
            /// It waits for the next photo.
            case keepIdle
            /// It is stopped (killed and reaped, if still running).
            case stop
        }

        /// The longest a photo may take.
        let photoTimeLimit: Duration
        /// How long before its job's deadline a photo's worker is killed (at most a fifth of the time left).
        let deadlineMargin: Duration
        /// The longest a worker may take to get ready.
        let startLimit: Duration
        /// Idle workers kept for reuse.
        let maximumIdle: Int
        /// The cores photos may use together.
        let cores: Int

        /// Idle workers, the last returned first out.
        private(set) var idle: [Worker] = []
        /// Workers that ended while holding a photo, by reason.
        private(set) var ends: [WorkerEnd.Reason: Int] = [:]
        /// Photos in workers now.
        private(set) var inFlight = 0

        /// A supervisor with the limits of `options`, for photos that share `cores` cores.
        init(options: SandboxOptions, cores: Int) {
            self.init(
                photoTimeLimit: options.photoTimeLimit, deadlineMargin: options.deadlineMargin, startLimit: options.startLimit,
                maximumIdle: options.maximumIdle, cores: cores
            )
        }

        /// A supervisor with these limits.
        init(photoTimeLimit: Duration, deadlineMargin: Duration, startLimit: Duration, maximumIdle: Int, cores: Int) {
            self.photoTimeLimit = photoTimeLimit
            self.deadlineMargin = deadlineMargin
            self.startLimit = startLimit
            self.maximumIdle = maximumIdle
            self.cores = cores
        }

        /// When a photo starting at `now` must be answered: the earlier of its own `limit` (the
        /// photo time limit when nil, never more) and its job's deadline less the margin.
        func deadline(from now: ContinuousClock.Instant, limit: Duration? = nil, job: ContinuousClock.Instant?) -> ContinuousClock.Instant {
            var deadline = now + min(limit ?? photoTimeLimit, photoTimeLimit)
            if let job {
                let margin = min(deadlineMargin, (job - now) / 5)
                deadline = min(deadline, job - margin)
            }
            return deadline
        }

        /// A photo goes to a worker, with `waitingPhotos` photos waiting for a thread behind it:
        /// returns the threads its decode may use. When every core has a photo, each decodes on
        /// one; a photo alone takes the idle cores, unless one is waiting (spreading a photo over
        /// two cores costs about a fifth more CPU in all, so the waiting photo gets the cores first).
        mutating func photoStarts(waitingPhotos: Int) -> Int {
            let others = inFlight
            inFlight += 1
            return waitingPhotos > 0 ? 1 : max(1, cores - others)
        }

        /// A photo's exchange is over, however it ended.
        mutating func photoEnds() {
            inFlight -= 1
        }

        /// A request needs a worker and must be answered by `deadline`: the idle worker returned
        /// last, else a new one that must get ready within the time left (at least a millisecond,
        /// at most the start limit), so that a worker that cannot start does not hold the thread longer.
        mutating func checkOut(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> CheckOut {
            if let worker = idle.popLast() { return .reuse(worker) }
            return .start(limit: max(.milliseconds(1), min(startLimit, deadline - now)))
        }

        /// No worker could be started for a request due at `deadline`: the photo's end is
        /// `decode_timeout` when its time was shorter than the start limit, else `decoder_crashed`.
        /// Not a worker's end: it is not counted among the restarts.
        func startFailed(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> WorkerEnd.Reason {
            deadline - now < startLimit ? .timedOut : .crashed
        }

        /// `worker` is done with its request, which ended as `outcome`: what becomes of it. A worker
        /// that ended is counted by reason; one that answered is kept while fewer than
        /// `maximumIdle` wait.
        mutating func checkIn(_ worker: Worker, after outcome: Outcome) -> Disposal {
            switch outcome {
            case .answered:
                guard idle.count < maximumIdle else { return .stop }
                idle.append(worker)
                return .keepIdle
            case .retiring:
                return .stop
            case .ended(let reason):
                ends[reason, default: 0] += 1
                return .stop
            }
        }

        /// The supervisor stops: the idle workers to stop, none kept.
        mutating func shutdown() -> [Worker] {
            defer { idle.removeAll() }
            return idle
        }

        /// Workers that ended while holding a photo, by reason (its code), every reason listed.
        var restartCounts: [String: Int] {
            Dictionary(uniqueKeysWithValues: WorkerEnd.Reason.allCases.map { ($0.rawValue, ends[$0] ?? 0) })
        }
    }
}

extension SandboxedDecoding.Supervisor: Sendable where Worker: Sendable {}
