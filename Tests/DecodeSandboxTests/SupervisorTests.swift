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

    @Test("a worker that cannot start is the photo's decode_timeout when its time was shorter than the start limit, else decoder_crashed; neither is a restart")
    func startFailure() {
        let supervisor = supervisor()
        #expect(supervisor.startFailed(deadline: t0 + .seconds(3), now: t0) == .timedOut)
        #expect(supervisor.startFailed(deadline: t0 + .seconds(25), now: t0) == .crashed)
        #expect(supervisor.restartCounts.values.allSatisfy { $0 == 0 })
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
