import Testing
@testable import DecodeSandbox

/// The worker supervisor's decisions without processes, threads or sleeps: each event in, the
/// actions out, as AsyncHTTPClient tests `HTTPConnectionPool.StateMachine`. Workers are numbers.
@Suite("Decode worker supervisor state machine")
struct SupervisorTests {
    typealias Supervisor = SandboxedDecoding.Supervisor<Int>

    let t0 = ContinuousClock.now

    func supervisor(maximumIdle: Int = 2, cores: Int = 4) -> Supervisor {
        Supervisor(photoTimeLimit: .seconds(30), deadlineMargin: .milliseconds(250), startLimit: .seconds(20), maximumIdle: maximumIdle, cores: cores)
    }

    /// The worker a check-out reuses, or nil when it starts one.
    func reused(_ supervisor: inout Supervisor) -> Int? {
        guard case .reuse(let worker) = supervisor.checkOut(deadline: t0 + .seconds(30), now: t0) else { return nil }
        return worker
    }

    @Test("with no idle worker a photo starts one; a worker that answered is kept and reused, the last returned first")
    func reuse() {
        var supervisor = supervisor(maximumIdle: 2)
        guard case .start = supervisor.checkOut(deadline: t0 + .seconds(30), now: t0) else {
            Issue.record("with no idle worker the photo must start one")
            return
        }
        #expect(supervisor.checkIn(1, after: .answered) == .keepIdle)
        #expect(supervisor.checkIn(2, after: .answered) == .keepIdle)
        #expect(supervisor.idle == [1, 2])
        #expect(reused(&supervisor) == 2)
        #expect(reused(&supervisor) == 1)
        #expect(reused(&supervisor) == nil)
    }

    @Test("past maximumIdle an answered worker is stopped, not kept")
    func idleCap() {
        var supervisor = supervisor(maximumIdle: 1)
        #expect(supervisor.checkIn(1, after: .answered) == .keepIdle)
        #expect(supervisor.checkIn(2, after: .answered) == .stop)
        #expect(supervisor.idle == [1])
    }

    @Test("a retiring worker is stopped and not counted; one that crashed, timed out or hit its memory limit is stopped and counted by reason")
    func endsCounted() {
        var supervisor = supervisor(maximumIdle: 4)
        #expect(supervisor.checkIn(1, after: .retiring) == .stop)
        #expect(supervisor.checkIn(2, after: .ended(.crashed)) == .stop)
        #expect(supervisor.checkIn(3, after: .ended(.crashed)) == .stop)
        #expect(supervisor.checkIn(4, after: .ended(.timedOut)) == .stop)
        #expect(supervisor.checkIn(5, after: .ended(.memory)) == .stop)
        #expect(supervisor.idle.isEmpty)
        #expect(supervisor.restartCounts == ["decoder_crashed": 2, "decode_timeout": 1, "memory_limit_exceeded": 1])
    }

    @Test("every reason is listed in the restart counts, at zero before any worker ends")
    func restartCountsListed() {
        #expect(supervisor().restartCounts == ["decoder_crashed": 0, "decode_timeout": 0, "memory_limit_exceeded": 0])
    }

    @Test("a new worker must get ready within the photo's time left, never longer than the start limit nor under a millisecond")
    func startLimit() {
        var supervisor = supervisor()
        guard case .start(let long) = supervisor.checkOut(deadline: t0 + .seconds(60), now: t0),
              case .start(let short) = supervisor.checkOut(deadline: t0 + .seconds(3), now: t0),
              case .start(let past) = supervisor.checkOut(deadline: t0 - .seconds(1), now: t0) else {
            Issue.record("with no idle worker every photo must start one")
            return
        }
        #expect(long == .seconds(20))
        #expect(short == .seconds(3))
        #expect(past == .milliseconds(1))
    }

    @Test("a worker that cannot start for a photo is counted as a start failure, not a restart; one the photo's deadline cut short is not counted")
    func startFailure() {
        var supervisor = supervisor()
        _ = supervisor.checkOut(deadline: t0 + .seconds(3), now: t0)
        supervisor.startFailed(counted: true, why: "exec failed")
        _ = supervisor.checkOut(deadline: t0 + .seconds(3), now: t0)
        supervisor.startFailed(counted: false, why: "not ready in the photo's time")
        #expect(supervisor.busy == 0)
        #expect(supervisor.startFailures == 1 && supervisor.startFailuresInARow == 1 && supervisor.lastStartFailure == "exec failed")
        #expect(supervisor.restartCounts.values.allSatisfy { $0 == 0 })
    }

    @Test("after unavailableAfter starts fail in a row with no idle worker, workers are unavailable; a start in the background is scheduled, backing off to at most 5 s, and the first start that gets ready ends it")
    func unavailability() {
        var supervisor = Supervisor(photoTimeLimit: .seconds(30), deadlineMargin: .milliseconds(250), startLimit: .seconds(20), maximumIdle: 2, cores: 4,
                                    unavailableAfter: 3)
        supervisor.firstWorkerReady(1)
        #expect(reused(&supervisor) == 1)
        // The worker given the photo had died before it read it: a start failure, not a restart.
        #expect(supervisor.checkIn(1, after: .endedBeforeRequest) == .stop)
        #expect(supervisor.restartCounts.values.allSatisfy { $0 == 0 } && supervisor.startFailures == 1)
        // With no worker idle, a start in the background is due at once, before the workers are unavailable; one at a time.
        #expect(!supervisor.isUnavailable && supervisor.recoveryDelay() == .seconds(1))
        #expect(supervisor.recoveryDelay() == nil)
        for _ in 0..<2 {
            _ = supervisor.checkOut(deadline: t0 + .seconds(3), now: t0)
            supervisor.startFailed(counted: true, why: "exec failed")
        }
        #expect(supervisor.isUnavailable && supervisor.startFailuresInARow == 3)
        #expect(supervisor.recoveryDelay() == nil)
        var delays: [Duration] = []
        for _ in 0..<5 {
            #expect(supervisor.recoveryStart() == .startReplacement(limit: .seconds(20)))
            // While it starts, no second one.
            #expect(supervisor.recoveryStart() == .none)
            supervisor.replacementFailed(now: t0, why: "still failing")
            if let delay = supervisor.recoveryDelay() { delays.append(delay) }
        }
        #expect(delays == [2, 4, 5, 5, 5].map { Duration.seconds($0) })
        #expect(supervisor.recoveryStart() == .startReplacement(limit: .seconds(20)))
        #expect(supervisor.replacementStarted(7) == .keepIdle)
        #expect(!supervisor.isUnavailable && supervisor.startFailuresInARow == 0 && supervisor.recoveryDelay() == nil)
        #expect(supervisor.startFailures == 8 && supervisor.lastStartFailure == "still failing")

        // A worker started for a photo ends it too, as does any idle worker.
        var photoStart = self.supervisor(maximumIdle: 2)
        for _ in 0..<3 {
            _ = photoStart.checkOut(deadline: t0 + .seconds(3), now: t0)
            photoStart.startFailed(counted: true, why: "exec failed")
        }
        #expect(photoStart.isUnavailable)
        #expect(photoStart.checkIn(9, after: .answered) == .keepIdle)
        #expect(!photoStart.isUnavailable)
        _ = photoStart.shutdown()
        photoStart.photoWorkerStarted()
        #expect(photoStart.startFailuresInARow == 0)
    }

    @Test("a photo's deadline is the earliest of its own limit, the photo time limit and its job's deadline less the margin, at most a fifth of the time left")
    func deadlines() {
        let supervisor = supervisor()
        #expect(supervisor.deadline(from: t0, job: nil) == t0 + .seconds(30))
        #expect(supervisor.deadline(from: t0, limit: .seconds(4), job: nil) == t0 + .seconds(4))
        #expect(supervisor.deadline(from: t0, limit: .seconds(90), job: nil) == t0 + .seconds(30))
        // A job due in 10 s keeps the whole margin; one due in 1 s keeps a fifth of it.
        #expect(supervisor.deadline(from: t0, job: t0 + .seconds(10)) == t0 + .seconds(10) - .milliseconds(250))
        #expect(supervisor.deadline(from: t0, job: t0 + .seconds(1)) == t0 + .milliseconds(800))
        #expect(supervisor.deadline(from: t0, limit: .seconds(2), job: t0 + .seconds(10)) == t0 + .seconds(2))
    }

    @Test("a photo alone takes every core; each later one the cores left, at least one; with photos waiting behind it, one; a photo that ends gives its core back")
    func threads() {
        var supervisor = supervisor(cores: 4)
        #expect(supervisor.photoStarts(waitingPhotos: 0) == 4)
        #expect(supervisor.photoStarts(waitingPhotos: 0) == 3)
        #expect(supervisor.photoStarts(waitingPhotos: 2) == 1)
        #expect(supervisor.photoStarts(waitingPhotos: 0) == 1)
        #expect(supervisor.photoStarts(waitingPhotos: 0) == 1)
        #expect(supervisor.inFlight == 5)
        for _ in 0..<5 { supervisor.photoEnds() }
        #expect(supervisor.inFlight == 0)
        #expect(supervisor.photoStarts(waitingPhotos: 0) == 4)
    }

    /// Checks out a worker for a photo and returns it when it ends as `outcome` and is stopped:
    /// whether a replacement is started then.
    func photoEnds(_ supervisor: inout Supervisor, worker: Int, as outcome: Supervisor.Outcome, at now: ContinuousClock.Instant) -> Supervisor.Replacement {
        _ = supervisor.checkOut(deadline: now + .seconds(30), now: now)
        guard supervisor.checkIn(worker, after: outcome) == .stop else { return .none }
        return supervisor.workerStopped(now: now)
    }

    @Test("a worker that timed out, crashed, hit its memory limit or retired is replaced in the background, and the replacement kept for the next photo")
    func replacement() {
        for outcome in [Supervisor.Outcome.ended(.timedOut), .ended(.crashed), .ended(.memory), .retiring] {
            var supervisor = supervisor(maximumIdle: 2)
            supervisor.firstWorkerReady(1)
            #expect(photoEnds(&supervisor, worker: 1, as: outcome, at: t0) == .startReplacement(limit: .seconds(20)), "\(outcome)")
            #expect(supervisor.starting == 1)
            // Another stop meanwhile does not start a second: one is starting already.
            #expect(supervisor.workerStopped(now: t0) == .none)
            #expect(supervisor.replacementStarted(2) == .keepIdle)
            #expect(supervisor.idle == [2] && supervisor.starting == 0 && supervisor.replacementsStarted == 1)
            // The next photo takes it rather than starting one.
            #expect(reused(&supervisor) == 2)
        }
    }

    @Test("a worker stopped as one idle worker too many is not replaced")
    func surplusNotReplaced() {
        var supervisor = supervisor(maximumIdle: 1)
        supervisor.firstWorkerReady(1)
        #expect(reused(&supervisor) == 1)
        guard case .start = supervisor.checkOut(deadline: t0 + .seconds(30), now: t0) else {
            Issue.record("with the only idle worker busy, the second photo must start one")
            return
        }
        #expect(supervisor.checkIn(1, after: .answered) == .keepIdle)
        #expect(supervisor.checkIn(2, after: .answered) == .stop)
        #expect(supervisor.workerStopped(now: t0) == .none)
        #expect(supervisor.starting == 0)
    }

    @Test("replacements bring the workers back up to the most the pool used at once, never past maximumIdle")
    func replacementsBounded() {
        for (maximumIdle, expected) in [(4, 3), (2, 2)] {
            var supervisor = supervisor(maximumIdle: maximumIdle)
            supervisor.firstWorkerReady(0)
            // Three photos at once: the idle worker and two new ones.
            for _ in 0..<3 { _ = supervisor.checkOut(deadline: t0 + .seconds(30), now: t0) }
            #expect(supervisor.mostBusy == 3)
            var started = 0
            for worker in 0..<3 {
                #expect(supervisor.checkIn(worker, after: .ended(.timedOut)) == .stop)
                if case .startReplacement = supervisor.workerStopped(now: t0) { started += 1 }
            }
            #expect(started == expected, "maximumIdle \(maximumIdle)")
            for worker in 10..<(10 + started) { #expect(supervisor.replacementStarted(worker) == .keepIdle) }
            #expect(supervisor.idle.count == expected)
            // Every worker is back: a further stop starts none.
            #expect(supervisor.workerStopped(now: t0) == .none)
        }
        // A pool that used one worker at a time gets one back each time, not one per thread.
        var single = supervisor(maximumIdle: 4)
        single.firstWorkerReady(0)
        for worker in 0..<3 {
            #expect(photoEnds(&single, worker: worker, as: .ended(.crashed), at: t0) == .startReplacement(limit: .seconds(20)))
            #expect(single.workerStopped(now: t0) == .none)
            #expect(single.replacementStarted(worker + 1) == .keepIdle)
            #expect(single.idle == [worker + 1])
        }
    }

    @Test("a photo that finds no idle worker while a replacement starts awaits it instead of starting a second, one photo per replacement; it starts its own if the replacement fails, and no worker runs it when its time runs out")
    func awaitingReplacement() {
        var supervisor = supervisor(maximumIdle: 2)
        supervisor.firstWorkerReady(1)
        #expect(photoEnds(&supervisor, worker: 1, as: .ended(.timedOut), at: t0) != .none)
        let due = t0 + .seconds(2)
        guard case .awaitReplacement = supervisor.checkOut(deadline: due, now: t0) else {
            Issue.record("a photo must await the replacement being started")
            return
        }
        // A second photo does not wait for the same replacement: it starts its own.
        guard case .start = supervisor.checkOut(deadline: due, now: t0) else {
            Issue.record("one photo awaits each replacement")
            return
        }
        guard case .awaitReplacement? = supervisor.awaitReplacement(deadline: due, now: t0 + .milliseconds(100)) else {
            Issue.record("the photo keeps waiting while the replacement starts")
            return
        }
        #expect(supervisor.replacementStarted(2) == .keepIdle)
        guard case .reuse(let worker)? = supervisor.awaitReplacement(deadline: due, now: t0 + .milliseconds(200)) else {
            Issue.record("the ready replacement must go to the photo awaiting it")
            return
        }
        #expect(worker == 2 && supervisor.awaiting == 0 && supervisor.busy == 2)

        var failing = self.supervisor(maximumIdle: 2)
        failing.firstWorkerReady(1)
        _ = photoEnds(&failing, worker: 1, as: .ended(.crashed), at: t0)
        _ = failing.checkOut(deadline: due, now: t0)
        failing.replacementFailed(now: t0 + .milliseconds(100))
        guard case .start(let limit)? = failing.awaitReplacement(deadline: due, now: t0 + .milliseconds(100)) else {
            Issue.record("with its replacement failed, the photo must start its own")
            return
        }
        #expect(limit == .milliseconds(1900) && failing.awaiting == 0)

        var late = self.supervisor(maximumIdle: 2)
        late.firstWorkerReady(1)
        _ = photoEnds(&late, worker: 1, as: .ended(.crashed), at: t0)
        _ = late.checkOut(deadline: due, now: t0)
        #expect(late.awaitReplacement(deadline: due, now: due) == nil)
        late.gaveUpAwaiting()
        #expect(late.awaiting == 0 && late.busy == 0 && late.starting == 1)
        // Giving up is no start failure: the replacement may yet get ready.
        #expect(late.startFailures == 0)
    }

    @Test("a replacement that cannot start is counted and backs off, doubling with each failure in a row; none is started meanwhile, and one that gets ready ends the back-off")
    func replacementBackOff() {
        var supervisor = supervisor(maximumIdle: 2)
        supervisor.firstWorkerReady(1)
        var now = t0
        #expect(photoEnds(&supervisor, worker: 1, as: .ended(.crashed), at: now) != .none)
        #expect(supervisor.replacementFailed(now: now) == .seconds(1))
        #expect(supervisor.starting == 0 && supervisor.replacementFailures == 1)
        // Within the back-off a stop starts nothing: the next photo starts its own worker, as without replacements.
        #expect(photoEnds(&supervisor, worker: 2, as: .ended(.crashed), at: now + .milliseconds(999)) == .none)
        now += .seconds(1)
        #expect(supervisor.workerStopped(now: now) != .none)
        #expect(supervisor.replacementFailed(now: now) == .seconds(2))
        #expect(supervisor.workerStopped(now: now + .seconds(1)) == .none)
        now += .seconds(2)
        var backOffs: [Duration] = []
        for _ in 0..<8 {
            #expect(supervisor.workerStopped(now: now) != .none)
            let backOff = supervisor.replacementFailed(now: now)
            backOffs.append(backOff)
            now += backOff
        }
        #expect(backOffs == [4, 8, 16, 32, 60, 60, 60, 60].map { Duration.seconds($0) })
        #expect(supervisor.replacementFailures == 10)
        #expect(supervisor.workerStopped(now: now) != .none)
        #expect(supervisor.replacementStarted(3) == .keepIdle)
        #expect(supervisor.failuresInARow == 0 && supervisor.backingOffUntil == nil)
        // Replacement failures are not worker ends: the restart counts hold only the two crashes.
        #expect(supervisor.restartCounts["decoder_crashed"] == 2)
    }

    @Test("an idle worker found ended at check-out is dropped without a replacement: the photo checks out again and starts its own")
    func idleWorkerFoundEnded() {
        var supervisor = supervisor(maximumIdle: 2)
        supervisor.firstWorkerReady(1)
        #expect(reused(&supervisor) == 1)
        supervisor.idleWorkerEnded()
        guard case .start = supervisor.checkOut(deadline: t0 + .seconds(30), now: t0) else {
            Issue.record("with no idle worker left the photo must start one")
            return
        }
        #expect(supervisor.busy == 1 && supervisor.mostBusy == 1 && supervisor.starting == 0)
    }

    @Test("after shutdown nothing is kept or started: a replacement that gets ready and a worker whose photo is answered are stopped")
    func shutdownStopsLateWorkers() {
        var supervisor = supervisor(maximumIdle: 3)
        supervisor.firstWorkerReady(1)
        #expect(photoEnds(&supervisor, worker: 1, as: .ended(.timedOut), at: t0) != .none)
        // A photo awaits the replacement, which is stopped as it gets ready: the photo starts its own.
        _ = supervisor.checkOut(deadline: t0 + .seconds(30), now: t0)
        #expect(supervisor.shutdown().isEmpty)
        #expect(supervisor.replacementStarted(2) == .stop)
        guard case .start? = supervisor.awaitReplacement(deadline: t0 + .seconds(30), now: t0) else {
            Issue.record("with the replacement stopped, the photo must start its own")
            return
        }
        #expect(supervisor.checkIn(3, after: .answered) == .stop)
        #expect(supervisor.workerStopped(now: t0) == .none)
        #expect(supervisor.idle.isEmpty && supervisor.starting == 0 && supervisor.busy == 0)
    }

    @Test("shutdown hands back every idle worker to stop, and keeps none")
    func shutdown() {
        var supervisor = supervisor(maximumIdle: 3)
        _ = supervisor.checkIn(1, after: .answered)
        _ = supervisor.checkIn(2, after: .answered)
        #expect(supervisor.shutdown() == [1, 2])
        #expect(supervisor.idle.isEmpty)
        #expect(supervisor.shutdown().isEmpty)
    }
}
