extension SandboxedDecoding {
    /// The worker supervisor's decisions apart from processes, locks and the clock: which worker a
    /// photo goes to (an idle one, or a new one started within the photo's time), until when it may
    /// take, on how many threads it decodes, what becomes of the worker after its answer (kept
    /// idle, stopped because it retires or idle ones are enough, or stopped and counted because it
    /// crashed, ran out of time or memory), when a stopped worker's replacement is started in the
    /// background so that the next photo finds it ready, when no worker can be started (workers
    /// are then unavailable, and a start is tried in the background until one gets ready), and
    /// which workers shutdown stops. Each
    /// event is a method that returns what `SandboxedDecoding` must do; it holds one under its lock
    /// and carries the actions out. Pure, generic over what stands for a worker and with the time a
    /// parameter, so its tests run without processes, threads or sleeps, as AsyncHTTPClient tests
    /// `HTTPConnectionPool.StateMachine` (and `ValidationThreadPool.StateMachine` is tested).
    struct Supervisor<Worker> {
        /// Where a photo's request goes (`checkOut(deadline:now:)`).
        enum CheckOut {
            /// To this idle worker; one found ended (killed from outside while idle) is dropped
            /// (`idleWorkerEnded()`), not blamed on the photo: check out again.
            case reuse(Worker)
            /// To a new worker, which must get ready within `limit`; if it cannot, the photo ends
            /// as `startFailed(deadline:now:)` says.
            case start(limit: Duration)
            /// To a replacement being started in the background, not yet ready: ask
            /// `awaitReplacement(deadline:now:)` until it says otherwise. Starting a second worker
            /// beside it would only slow both on a busy machine.
            case awaitReplacement
        }

        /// How a worker's exchange ended (`checkIn(_:after:)`).
        enum Outcome: Equatable {
            /// It answered and can take another photo.
            case answered
            /// It answered and exits now: it has spent most of its CPU allowance.
            case retiring
            /// It crashed, ran out of time or reached its memory limit, and was killed.
            case ended(WorkerEnd.Reason)
            /// It ended before it read the request (`WorkerEnd.Reason.unavailable`): a worker that
            /// died at birth, counted as a start that failed, not as a restart.
            case endedBeforeRequest
        }

        /// What becomes of a worker after its exchange, or of a replacement once ready.
        enum Disposal: Equatable {
            /// It waits for the next photo.
            case keepIdle
            /// It is stopped (killed and reaped, if still running); then `workerStopped(now:)`.
            case stop
        }

        /// Whether a worker is started in the background after one stopped (`workerStopped(now:)`).
        enum Replacement: Equatable {
            /// Start one, allowed `limit` to get ready, off the photos' threads; then
            /// `replacementStarted(_:)` or `replacementFailed(now:)`.
            case startReplacement(limit: Duration)
            /// Start none: the workers kept, starting and in use are as many as the pool has used
            /// at once, shutdown has begun, or replacements are backing off after a failure.
            case none
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
        /// Starts that fail in a row, with no idle worker left, after which workers are unavailable.
        let unavailableAfter: Int
        /// The longest wait between the starts tried in the background while workers are unavailable.
        static var longestRecoveryDelay: Duration { .seconds(5) }

        /// Idle workers, the last returned first out.
        private(set) var idle: [Worker] = []
        /// Workers that ended while holding a photo, by reason.
        private(set) var ends: [WorkerEnd.Reason: Int] = [:]
        /// Photos in workers now.
        private(set) var inFlight = 0
        /// Workers checked out to a request now (or being started for one).
        private(set) var busy = 0
        /// The most workers checked out at once so far (the first worker counts as one): how many a
        /// stopped worker's replacements may bring the workers back up to, at most `maximumIdle`.
        private(set) var mostBusy = 1
        /// Replacements being started in the background now.
        private(set) var starting = 0
        /// Photos waiting for a replacement being started: a check-out awaits one only while
        /// `starting` is more than this, so each replacement has at most one photo waiting for it.
        private(set) var awaiting = 0
        /// Replacements started in the background that got ready.
        private(set) var replacementsStarted = 0
        /// Replacements that could not be started.
        private(set) var replacementFailures = 0
        /// Replacements that failed since the last one that got ready: the back-off doubles with each.
        private(set) var failuresInARow = 0
        /// Until when no replacement is started, after one failed.
        private(set) var backingOffUntil: ContinuousClock.Instant?
        /// True once shutdown has begun: no worker is kept or started any more.
        private(set) var isShutDown = false
        /// Worker starts that failed, for a photo, in the background or at birth (a worker that
        /// ended before it read its first request).
        private(set) var startFailures = 0
        /// Starts that failed since the last one that got ready, wherever they were started.
        private(set) var startFailuresInARow = 0
        /// Why the last start failed.
        private(set) var lastStartFailure: String?
        /// True while a start in the background is due (`recoveryDelay()` said when).
        private(set) var recoveryPending = false

        /// A supervisor with the limits of `options`, for photos that share `cores` cores.
        init(options: SandboxOptions, cores: Int) {
            self.init(
                photoTimeLimit: options.photoTimeLimit, deadlineMargin: options.deadlineMargin, startLimit: options.startLimit,
                maximumIdle: options.maximumIdle, cores: cores, unavailableAfter: options.unavailableAfter
            )
        }

        /// A supervisor with these limits.
        init(photoTimeLimit: Duration, deadlineMargin: Duration, startLimit: Duration, maximumIdle: Int, cores: Int, unavailableAfter: Int = 3) {
            self.photoTimeLimit = photoTimeLimit
            self.deadlineMargin = deadlineMargin
            self.startLimit = startLimit
            self.maximumIdle = maximumIdle
            self.cores = cores
            self.unavailableAfter = max(1, unavailableAfter)
        }

        /// True while no worker can be had: the last `unavailableAfter` starts failed and no worker
        /// is idle. Photos are then the service's failure (`decoder_unavailable`) and the daemon is
        /// not ready, until a start gets ready.
        var isUnavailable: Bool {
            startFailuresInARow >= unavailableAfter && idle.isEmpty
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
        /// last, else a replacement being started that no other photo waits for, else a new one
        /// that must get ready within the time left (at least a millisecond, at most the start
        /// limit), so that a worker that cannot start does not hold the thread longer.
        mutating func checkOut(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> CheckOut {
            busy += 1
            mostBusy = max(mostBusy, busy)
            if let worker = idle.popLast() { return .reuse(worker) }
            if starting > awaiting {
                awaiting += 1
                return .awaitReplacement
            }
            return .start(limit: max(.milliseconds(1), min(startLimit, deadline - now)))
        }

        /// A photo told to await a replacement asks again: an idle worker once there is one (the
        /// replacement, or any worker checked in meanwhile); a worker of its own when the
        /// replacements it could wait for failed or were stopped (shutdown); `.awaitReplacement`
        /// while one is still starting and the photo has time left. A photo whose time ran out
        /// (nil) was run by no worker: `gaveUpAwaiting()`, and it is `decoder_unavailable`.
        mutating func awaitReplacement(deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> CheckOut? {
            if let worker = idle.popLast() {
                awaiting -= 1
                return .reuse(worker)
            }
            if starting < awaiting {
                awaiting -= 1
                return .start(limit: max(.milliseconds(1), min(startLimit, deadline - now)))
            }
            guard now < deadline else {
                awaiting -= 1
                return nil
            }
            return .awaitReplacement
        }

        /// The idle worker a check-out returned had ended (killed from outside while idle): dropped.
        /// The request checks out again at once, so no replacement is started for it.
        mutating func idleWorkerEnded() {
            busy -= 1
        }

        /// A photo that awaited a replacement ran out of time before one got ready: no worker ran
        /// it (`decoder_unavailable`). The replacement goes on starting, for the next photo.
        mutating func gaveUpAwaiting() {
            busy -= 1
        }

        /// A worker started for a photo got ready: the workers can start.
        mutating func photoWorkerStarted() {
            startFailuresInARow = 0
        }

        /// No worker could be started for a photo, because of `why`: no worker ran it
        /// (`decoder_unavailable`), and it is not a worker's end, so not among the restarts. A start
        /// the photo's own deadline cut short while the worker was still getting ready says nothing
        /// of the workers (`counted` false); any other is counted as a start that failed.
        mutating func startFailed(counted: Bool, why: String) {
            busy -= 1
            if counted { countStartFailure(why) }
        }

        private mutating func countStartFailure(_ why: String) {
            startFailures += 1
            startFailuresInARow += 1
            lastStartFailure = why
        }

        /// The worker started before any photo, to check that workers run: kept for the first photo.
        mutating func firstWorkerReady(_ worker: Worker) {
            idle.append(worker)
        }

        /// `worker` is done with its request, which ended as `outcome`: what becomes of it. A worker
        /// that ended is counted by reason, one that ended before it read the request as a start
        /// that failed; one that answered is kept while fewer than `maximumIdle` wait and shutdown
        /// has not begun. After a `.stop`, `workerStopped(now:)`.
        mutating func checkIn(_ worker: Worker, after outcome: Outcome) -> Disposal {
            busy -= 1
            switch outcome {
            case .answered:
                guard !isShutDown, idle.count < maximumIdle else { return .stop }
                idle.append(worker)
                return .keepIdle
            case .retiring:
                return .stop
            case .ended(let reason):
                ends[reason, default: 0] += 1
                return .stop
            case .endedBeforeRequest:
                countStartFailure("a worker ended before it read its request")
                return .stop
            }
        }

        /// A worker was stopped (it ended, retired, or was one idle worker too many): whether to
        /// start its replacement in the background now. One is started while the workers kept,
        /// starting and in use are fewer than the most the pool has used at once (at most
        /// `maximumIdle`), unless shutdown has begun or replacements back off after a failure; a
        /// worker stopped as one too many is never replaced, since the idle ones are enough.
        mutating func workerStopped(now: ContinuousClock.Instant) -> Replacement {
            guard !isShutDown else { return .none }
            if let backingOffUntil, now < backingOffUntil { return .none }
            guard idle.count + starting + busy < min(mostBusy, maximumIdle) else { return .none }
            starting += 1
            return .startReplacement(limit: startLimit)
        }

        /// A replacement got ready: kept idle for the next photo, unless shutdown has begun or
        /// `maximumIdle` already wait (photos started their own meanwhile), when it is stopped.
        mutating func replacementStarted(_ worker: Worker) -> Disposal {
            starting -= 1
            replacementsStarted += 1
            failuresInARow = 0
            startFailuresInARow = 0
            backingOffUntil = nil
            guard !isShutDown, idle.count < maximumIdle else { return .stop }
            idle.append(worker)
            return .keepIdle
        }

        /// A replacement could not be started (because of `why`): counted, and none is started
        /// again until the back-off has passed (1 s, doubling with each failure in a row, at most a
        /// minute). It is not retried on a timer while workers are available: the next worker to
        /// stop after the back-off starts one, and until then a photo that finds no idle worker
        /// starts its own, as without replacements. Returns the back-off.
        @discardableResult
        mutating func replacementFailed(now: ContinuousClock.Instant, why: String = "a replacement could not be started") -> Duration {
            starting -= 1
            replacementFailures += 1
            countStartFailure(why)
            failuresInARow += 1
            let backOff = min(.seconds(60), .seconds(1) * (1 << min(failuresInARow - 1, 6)))
            backingOffUntil = now + backOff
            return backOff
        }

        /// A start that failed may have left no worker to be had: when the last start failed, no
        /// worker is idle and no start in the background is due yet, one is due after the returned
        /// delay (1 s, doubling with each failure past `unavailableAfter`, at most
        /// `longestRecoveryDelay`), so that the workers come back without a photo to start one (a
        /// daemon that is not ready gets none), and a start that hangs is counted within the whole
        /// start limit rather than cut short by photos' deadlines; nil when none is to be
        /// scheduled. Then `recoveryStart()`.
        mutating func recoveryDelay() -> Duration? {
            guard !isShutDown, startFailuresInARow > 0, idle.isEmpty, !recoveryPending else { return nil }
            recoveryPending = true
            let doublings = min(max(0, startFailuresInARow - unavailableAfter), 3)
            return min(Self.longestRecoveryDelay, .seconds(1) * (1 << doublings))
        }

        /// The start `recoveryDelay()` scheduled is due: start one in the background (then
        /// `replacementStarted(_:)` or `replacementFailed(now:why:)`) while the last start still
        /// failed, no worker is idle and none is starting; else nothing (a worker got ready
        /// meanwhile, or the start under way decides).
        mutating func recoveryStart() -> Replacement {
            recoveryPending = false
            guard !isShutDown, startFailuresInARow > 0, idle.isEmpty, starting == 0 else { return .none }
            starting += 1
            return .startReplacement(limit: startLimit)
        }

        /// The supervisor stops: the idle workers to stop, none kept; replacements still starting
        /// are stopped when they get ready (`replacementStarted(_:)`), and workers in use when
        /// their photo is answered (`checkIn(_:after:)`).
        mutating func shutdown() -> [Worker] {
            isShutDown = true
            defer { idle.removeAll() }
            return idle
        }

        /// Workers that ended while holding a photo, by reason (its code), every reason listed.
        var restartCounts: [String: Int] {
            Dictionary(uniqueKeysWithValues: WorkerEnd.Reason.restartReasons.map { ($0.rawValue, ends[$0] ?? 0) })
        }
    }
}

extension SandboxedDecoding.Supervisor: Sendable where Worker: Sendable {}
