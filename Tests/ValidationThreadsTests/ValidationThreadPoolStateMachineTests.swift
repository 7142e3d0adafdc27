import Testing
@testable import ValidationThreads

/// The pool's decisions without threads, sleeps or a clock: each event in, the actions out, as
/// AsyncHTTPClient tests `HTTPConnectionPool.StateMachine`.
@Suite("Worker pool state machine")
struct ValidationThreadPoolStateMachineTests {
    typealias StateMachine = ValidationThreadPool.StateMachine
    typealias Job = ValidationThreadPool.Job

    let t0 = ContinuousClock.now

    func job(_ id: Int, deadline: ContinuousClock.Instant? = nil, runLimit: Duration? = nil) -> Job {
        Job(id: id, deadline: deadline, runLimit: runLimit, work: { _ in }, expire: {}, refuse: { _ in })
    }

    func machine(threads: Int = 1, spare: Int = 0, queue: Int = 4, replacements: Int = 1, timeout: Duration = .seconds(30)) -> StateMachine {
        var machine = StateMachine(threadCount: threads, spareThreads: spare, queueLimit: queue, maximumReplacements: replacements, defaultTimeout: timeout)
        let started = machine.start()
        #expect(started == threads + spare)
        return machine
    }

    /// Admits and queues `id` for `key`, expecting no one to give way.
    func submit(_ id: Int, _ key: FairKey, into machine: inout StateMachine, deadline: ContinuousClock.Instant? = nil, runLimit: Duration? = nil) {
        guard case .admitted(nil) = machine.admit(key) else {
            Issue.record("job \(id) of \(key) was not admitted plainly")
            return
        }
        let queued = machine.enqueue(job(id, deadline: deadline, runLimit: runLimit), for: key)
        #expect(queued)
    }

    /// The id a free thread runs next, and its deadline; nil when it does anything else.
    func nextRun(_ machine: inout StateMachine, at now: ContinuousClock.Instant) -> (id: Int, deadline: ContinuousClock.Instant)? {
        guard case .run(let job, let deadline) = machine.next(now: now) else { return nil }
        return (job.id, deadline)
    }

    /// The ids a free thread runs, one after another, each finished before the next, until it has none.
    func drain(_ machine: inout StateMachine) -> [Int] {
        var served: [Int] = []
        while let next = nextRun(&machine, at: t0) {
            served.append(next.id)
            machine.finish(next.id)
        }
        return served
    }

    @Test("a free thread runs the queued job until the earliest of its deadline, its run limit from now, or the default timeout")
    func runDeadlines() {
        var machine = machine(queue: 8)
        let key = FairKey(caller: "a")
        submit(1, key, into: &machine, runLimit: .seconds(2))
        submit(2, key, into: &machine, deadline: t0 + .seconds(5), runLimit: .seconds(9))
        submit(3, key, into: &machine)
        let now = t0 + .seconds(1)
        let first = nextRun(&machine, at: now)
        #expect(first?.deadline == now + .seconds(2))
        machine.finish(1)
        let second = nextRun(&machine, at: now)
        #expect(second?.deadline == t0 + .seconds(5))
        machine.finish(2)
        let third = nextRun(&machine, at: now)
        #expect(third?.deadline == now + .seconds(30))
        machine.finish(3)
        guard case .wait = machine.next(now: now) else {
            Issue.record("an idle thread with nothing queued must wait")
            return
        }
    }

    @Test("a job whose deadline passes while it waits is expired, by the next free thread or the watchdog, and never runs")
    func expiresWaiting() {
        var machine = machine()
        let key = FairKey(caller: "a")
        submit(1, key, into: &machine)
        submit(2, key, into: &machine, deadline: t0 + .milliseconds(50))
        submit(3, key, into: &machine, deadline: t0 + .milliseconds(50))
        let running = nextRun(&machine, at: t0)
        #expect(running?.id == 1)
        // The watchdog takes one expired job out of the queue...
        let expiry = machine.tick(now: t0 + .milliseconds(60))
        #expect(expiry.expired.map(\.id) == [2, 3])
        #expect(expiry.overdue.isEmpty && expiry.threadsToStart == 0)
        // ...and a thread that comes free finds only what is still due.
        submit(4, key, into: &machine, deadline: t0 + .milliseconds(70))
        machine.finish(1)
        guard case .expire(let late) = machine.next(now: t0 + .milliseconds(80)) else {
            Issue.record("a job past its deadline must be expired, not run")
            return
        }
        #expect(late.id == 4)
    }

    @Test("a running job past its deadline is answered while its thread stays with it; a stand-in starts, up to the limit, and goes when the job returns")
    func overdueGetsStandIn() {
        var machine = machine(threads: 1, queue: 4, replacements: 1)
        let key = FairKey(caller: "a")
        submit(1, key, into: &machine, runLimit: .milliseconds(100))
        submit(2, key, into: &machine, runLimit: .milliseconds(100))
        submit(3, key, into: &machine, runLimit: .milliseconds(100))
        let running = nextRun(&machine, at: t0)
        #expect(running?.id == 1)
        let early = machine.tick(now: t0 + .milliseconds(50))
        #expect(early.overdue.isEmpty)
        let first = machine.tick(now: t0 + .milliseconds(100))
        #expect(first.overdue.map(\.id) == [1] && first.threadsToStart == 1)
        #expect(machine.health(now: t0 + .milliseconds(150)).overdueJobs == 1)
        #expect(machine.health(now: t0 + .milliseconds(150)).longestOverdue == .milliseconds(50))
        #expect(machine.threads == 2)
        // The stand-in takes the next job; when it too is stuck, no second stand-in may start.
        let standIn = nextRun(&machine, at: t0 + .milliseconds(100))
        #expect(standIn?.id == 2)
        let second = machine.tick(now: t0 + .milliseconds(200))
        #expect(second.overdue.map(\.id) == [2] && second.threadsToStart == 0)
        #expect(!machine.isDrained, "job 3 waits for a thread")
        // The first stuck job returns: its thread serves job 3, and a thread is now one too many.
        machine.finish(1)
        let freed = nextRun(&machine, at: t0 + .milliseconds(300))
        #expect(freed?.id == 3)
        machine.finish(3)
        guard case .exit = machine.next(now: t0 + .milliseconds(300)) else {
            Issue.record("the surplus thread must end once the queue is empty")
            return
        }
        #expect(machine.threads == 1)
        #expect(machine.health(now: t0 + .milliseconds(300)).overdueTotal == 2)
    }

    @Test("a full pool refuses a job unless a caller holding two places more has one waiting; then that caller's newest gives way")
    func fullPoolAdmission() {
        var machine = machine(threads: 1, queue: 3)
        let busy = FairKey(caller: "busy")
        for id in 1...4 { submit(id, busy, into: &machine) }
        let running = nextRun(&machine, at: t0)
        #expect(running?.id == 1)
        #expect(machine.admitted.total == 4)
        guard case .refused = machine.admit(busy) else {
            Issue.record("the busy caller's fifth job must be refused: no one gives way to it")
            return
        }
        // Refused in its one project, but a new project of its own would get in (that one gives way).
        #expect(!machine.refusesNow(caller: "busy"))
        #expect(!machine.refusesNow(caller: "light"), "a caller with nothing waiting is never refused early")
        guard case .admitted(let evicted) = machine.admit(FairKey(caller: "light")) else {
            Issue.record("a light caller must be admitted into a full pool")
            return
        }
        #expect(evicted?.id == 4, "the busy caller's newest waiting job gives way")
        machine.release(busy)
        #expect(machine.admitted.total == 4)
    }

    @Test("a caller with a new project per job cannot crowd another out: the other, with nothing under way, is served next")
    func newProjectPerJob() {
        var machine = machine(threads: 1, queue: 4)
        for index in 0..<5 { submit(index, FairKey(caller: "flooder", project: "p\(index)"), into: &machine) }
        let running = nextRun(&machine, at: t0)
        #expect(running?.id == 0)
        guard case .admitted(let evicted) = machine.admit(FairKey(caller: "good", project: "home")) else {
            Issue.record("another caller must be admitted into a pool one caller fills")
            return
        }
        #expect(evicted?.id == 4)
        let queued = machine.enqueue(job(9, deadline: nil), for: FairKey(caller: "good", project: "home"))
        #expect(queued)
        machine.finish(0)
        let served = drain(&machine)
        // A free thread goes to the caller with the fewest jobs under way: the good caller's has
        // none, the flooder's three waiting ones hold its places (issue 53: fairness within 2x).
        #expect(served == [9, 1, 2, 3])
    }

    @Test("a spare thread runs another project's job while one project's jobs hold every thread, never a third of that project's")
    func spareThread() {
        var machine = machine(threads: 2, spare: 1, queue: 8)
        let heavy = FairKey(caller: "gateway", project: "heavy")
        for index in 0..<4 { submit(index, heavy, into: &machine) }
        #expect(nextRun(&machine, at: t0)?.id == 0)
        #expect(nextRun(&machine, at: t0)?.id == 1)
        // Both threads hold the heavy project's jobs: the spare does not take a third of them...
        guard case .wait = machine.next(now: t0) else {
            Issue.record("the spare thread must not run a job of a project that already has one running")
            return
        }
        // ...but another project's job, of the same caller or another, runs at once beside them.
        submit(10, FairKey(caller: "gateway", project: "light"), into: &machine)
        #expect(nextRun(&machine, at: t0)?.id == 10)
        submit(11, FairKey(caller: "gateway", project: "light"), into: &machine)
        submit(12, FairKey(caller: "other"), into: &machine)
        guard case .wait = machine.next(now: t0) else {
            Issue.record("every place, the spare included, is taken: a fourth job must wait")
            return
        }
        machine.finish(10)
        // The spare is free again and the heavy project still may not take it: the caller with
        // the fewest jobs under way goes first, "other" (none) before "gateway"'s light project.
        #expect(nextRun(&machine, at: t0)?.id == 12)
        // Two jobs run, so the next beside them is again the spare's: "gateway" (heavy, light)
        // and "other" both have one running, so neither gets a third thread...
        machine.finish(0)
        guard case .wait = machine.next(now: t0) else {
            Issue.record("with two callers holding the threads, a third job of one of them must wait")
            return
        }
        // ...until one ends: then the gateway's turn comes, the heavy project's included.
        machine.finish(12)
        #expect(nextRun(&machine, at: t0)?.id == 2)
    }

    @Test("a caller naming a new project per job gets no spare thread: the spare goes to another caller")
    func spareNotForSplitting() {
        var machine = machine(threads: 2, spare: 1, queue: 8)
        for index in 0..<4 { submit(index, FairKey(caller: "mallory", project: "p\(index)"), into: &machine) }
        #expect(nextRun(&machine, at: t0)?.id == 0)
        #expect(nextRun(&machine, at: t0)?.id == 1)
        // Two of mallory's projects hold both threads: its third project is no reason for a third thread.
        guard case .wait = machine.next(now: t0) else {
            Issue.record("a caller holding every thread must not take the spare with another project")
            return
        }
        submit(10, FairKey(caller: "alice", project: "home"), into: &machine)
        #expect(nextRun(&machine, at: t0)?.id == 10)
    }

    @Test("a thread taking a job can make another waiting job the spare's: the machine says so, so the pool wakes a sleeping thread")
    func takingAJobWakesTheSpare() {
        var machine = machine(threads: 2, spare: 1, queue: 8)
        submit(0, FairKey(caller: "a", project: "p1"), into: &machine)
        submit(1, FairKey(caller: "b", project: "x"), into: &machine)
        #expect(nextRun(&machine, at: t0)?.id == 0)
        #expect(nextRun(&machine, at: t0)?.id == 1)
        submit(2, FairKey(caller: "a", project: "p1"), into: &machine)
        submit(3, FairKey(caller: "a", project: "p2"), into: &machine)
        // "a" and "b" hold the threads: neither of a's jobs is the spare's, so it sleeps.
        #expect(!machine.hasWorkForAFreeThread)
        guard case .wait = machine.next(now: t0) else {
            Issue.record("a caller holding a thread beside another caller's must not take the spare")
            return
        }
        // b's job ends; its thread takes a's p1 job. Now p1 holds both threads, so p2's job is the
        // spare's, and nothing else will signal the sleeping spare thread: the machine must say so.
        machine.finish(1)
        #expect(nextRun(&machine, at: t0)?.id == 2)
        #expect(machine.hasWorkForAFreeThread)
        #expect(nextRun(&machine, at: t0)?.id == 3)
        #expect(!machine.hasWorkForAFreeThread)
    }

    @Test("the spare's choice is decided per caller: a caller holding threads with two projects is passed over whatever its number of waiting projects")
    func spareSelectionPerCaller() {
        #expect(StateMachine.sparing([FairKey(caller: "a", project: "p")]) == .projects(otherThan: FairKey(caller: "a", project: "p")))
        #expect(StateMachine.sparing([FairKey(caller: "a", project: "p"), FairKey(caller: "a", project: "p")]) == .projects(otherThan: FairKey(caller: "a", project: "p")))
        #expect(StateMachine.sparing([FairKey(caller: "a", project: "p"), FairKey(caller: "a", project: "q")]) == .callers(notIn: ["a"]))
        var queue = FairQueue<Int>()
        for index in 0..<1_000 { queue.append(index, for: FairKey(caller: "a", project: "p\(index)")) }
        queue.append(7_000, for: FairKey(caller: "b"))
        #expect(queue.contains(.callers(notIn: ["a"])))
        #expect(queue.popFirst(selecting: .callers(notIn: ["a"])) == 7_000)
        #expect(!queue.contains(.callers(notIn: ["a"])))
        #expect(queue.popFirst(selecting: .projects(otherThan: FairKey(caller: "a", project: "p0"))) == 1)
        #expect(queue.popFirst() == 0, "the project passed over keeps its turn")
    }

    @Test("without spare threads a job of another project waits for a thread as before")
    func noSpareThread() {
        var machine = machine(threads: 2, spare: 0, queue: 8)
        let heavy = FairKey(caller: "gateway", project: "heavy")
        for index in 0..<3 { submit(index, heavy, into: &machine) }
        _ = nextRun(&machine, at: t0)
        _ = nextRun(&machine, at: t0)
        submit(10, FairKey(caller: "gateway", project: "light"), into: &machine)
        guard case .wait = machine.next(now: t0) else {
            Issue.record("with both threads busy and no spare, a job must wait")
            return
        }
        // Projects take turns within their caller: the heavy one's turn came first.
        machine.finish(0)
        #expect(nextRun(&machine, at: t0)?.id == 2)
        machine.finish(1)
        #expect(nextRun(&machine, at: t0)?.id == 10)
    }

    @Test("a project's backlog queued behind its own running job delays another project's job by one job: the daemon's projectsTakeTurns, without threads")
    func backlogBehindRunningJob() {
        var machine = machine(threads: 1, queue: 16)
        let busy = FairKey(caller: "address:127.0.0.1", project: "busy")
        // The busy project's first job holds the only thread while its next three jobs queue,
        // then another project's one (LimitsTests.projectsTakeTurns).
        submit(0, busy, into: &machine)
        #expect(nextRun(&machine, at: t0)?.id == 0)
        for id in 1...3 { submit(id, busy, into: &machine) }
        submit(9, FairKey(caller: "address:127.0.0.1", project: "other"), into: &machine)
        machine.finish(0)
        machine.release(busy)
        let served = drain(&machine)
        // FIFO would serve 9 last; the other project runs second, one job behind the backlog.
        #expect(served == [1, 9, 2, 3])
    }

    @Test("an overdue job's stand-in thread counts as a regular thread, so the spare stays for another project")
    func spareWithOverdue() {
        var machine = machine(threads: 1, spare: 1, queue: 8, replacements: 1, timeout: .seconds(1))
        let heavy = FairKey(caller: "a", project: "heavy")
        submit(0, heavy, into: &machine)
        submit(1, heavy, into: &machine)
        #expect(nextRun(&machine, at: t0)?.id == 0)
        let expiry = machine.tick(now: t0 + .seconds(2))
        #expect(expiry.overdue.map(\.id) == [0] && expiry.threadsToStart == 1)
        // Job 0 is overdue: it no longer holds a place, so job 1 of the same project runs.
        #expect(nextRun(&machine, at: t0 + .seconds(2))?.id == 1)
        submit(2, heavy, into: &machine)
        guard case .wait = machine.next(now: t0 + .seconds(2)) else {
            Issue.record("the heavy project holds the regular place; the spare is not for it")
            return
        }
        submit(3, FairKey(caller: "a", project: "light"), into: &machine)
        #expect(nextRun(&machine, at: t0 + .seconds(2))?.id == 3)
    }

    @Test("stopping: a pool that never started hands back what was queued, takes nothing more, and every thread and the watchdog end")
    func stopping() {
        var unstarted = StateMachine(threadCount: 1, queueLimit: 2, maximumReplacements: 1, defaultTimeout: .seconds(30))
        let key = FairKey(caller: "a")
        submit(1, key, into: &unstarted)
        let stranded = unstarted.stopAccepting(started: false)
        #expect(stranded.map(\.id) == [1])
        let accepted = unstarted.enqueue(job(2), for: key)
        #expect(!accepted)

        var machine = machine(threads: 2)
        submit(1, key, into: &machine)
        let leftOver = machine.stopAccepting(started: true)
        #expect(leftOver.isEmpty)
        #expect(!machine.isDrained)
        let running = nextRun(&machine, at: t0)
        #expect(running?.id == 1)
        // Only overdue jobs may still run once the pool is drained.
        _ = machine.tick(now: t0 + .seconds(31))
        #expect(machine.isDrained)
        machine.stop()
        guard case .exit = machine.next(now: t0 + .seconds(31)) else {
            Issue.record("a free thread must end once the pool stops")
            return
        }
        let last = machine.tick(now: t0 + .seconds(32))
        #expect(last.stop)
    }
}
