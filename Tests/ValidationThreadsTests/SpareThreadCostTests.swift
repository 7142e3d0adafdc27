import Testing
@testable import ValidationThreads

/// The spare thread counts cost, not requests (issue 63, finding 4: 40 identities sending costly
/// photos, each "a caller with none running", took the spare thread as well as every worker, and
/// another caller's small photo waited behind them).
@Suite("Spare thread by cost")
struct SpareThreadCostTests {
    typealias StateMachine = ValidationThreadPool.StateMachine
    typealias Job = ValidationThreadPool.Job

    let t0 = ContinuousClock.now

    func machine(threads: Int = 2, spare: Int = 1, queue: Int = 64) -> StateMachine {
        var machine = StateMachine(threadCount: threads, spareThreads: spare, queueLimit: queue, maximumReplacements: 1, defaultTimeout: .seconds(30))
        _ = machine.start()
        return machine
    }

    /// Admits and queues job `id` of `key` costing `cost`.
    func submit(_ id: Int, _ key: FairKey, cost: Int?, into machine: inout StateMachine) {
        guard case .admitted(nil) = machine.admit(key) else {
            Issue.record("job \(id) of \(key) was not admitted plainly")
            return
        }
        var job = Job(id: id, deadline: nil, runLimit: nil, work: { _ in }, expire: {}, refuse: { _ in })
        job.cost = cost
        let queued = machine.enqueue(job, for: key)
        #expect(queued)
    }

    /// The id a free thread runs next; nil when it does anything else.
    func nextRun(_ machine: inout StateMachine) -> Int? {
        guard case .run(let job, _) = machine.next(now: t0) else { return nil }
        return job.id
    }

    @Test("40 identities' costly photos hold the workers: the spare stays free and runs another caller's cheap photo at once")
    func crowdOfCostlyIdentities() {
        var machine = machine()
        // 48 MP photos of 77 progressive scans, one per identity: each is "a caller with none running".
        for index in 0..<40 { submit(index, FairKey(caller: "header:crowd-\(index)"), cost: 41_000, into: &machine) }
        #expect(nextRun(&machine) == 0)
        #expect(nextRun(&machine) == 1)
        // The old rule gave the spare to crowd-2; it is as costly as those running, so it waits.
        #expect(!machine.hasWorkForAFreeThread)
        #expect(nextRun(&machine) == nil)
        submit(100, FairKey(caller: "header:alice"), cost: 300, into: &machine)
        #expect(machine.hasWorkForAFreeThread)
        #expect(nextRun(&machine) == 100)
    }

    @Test("the spare takes the cheapest waiting photo it may, whatever the turn")
    func cheapestFirst() {
        var machine = machine()
        submit(0, FairKey(caller: "a"), cost: 5_000, into: &machine)
        submit(1, FairKey(caller: "b"), cost: 5_000, into: &machine)
        #expect(nextRun(&machine) == 0)
        #expect(nextRun(&machine) == 1)
        submit(2, FairKey(caller: "c"), cost: 4_000, into: &machine)
        submit(3, FairKey(caller: "d"), cost: 200, into: &machine)
        submit(4, FairKey(caller: "e"), cost: 900, into: &machine)
        #expect(nextRun(&machine) == 3)
        // With two jobs running a free thread is the spare's: nothing is cheaper than the cheap one
        // running, which ends soon; then a regular thread takes the rest in their turns.
        machine.finish(0)
        #expect(nextRun(&machine) == nil)
        machine.finish(3)
        #expect(nextRun(&machine) == 2)
    }

    @Test("a photo as costly as the cheapest running one waits for a regular thread, which it then gets first")
    func equalCostWaitsItsTurn() {
        var machine = machine()
        let flood = FairKey(caller: "address:203.0.113.0/24")
        for index in 0..<6 { submit(index, flood, cost: 4_800, into: &machine) }
        #expect(nextRun(&machine) == 0)
        #expect(nextRun(&machine) == 1)
        submit(10, FairKey(caller: "address:198.51.100.0/24"), cost: 4_800, into: &machine)
        #expect(nextRun(&machine) == nil)
        machine.finish(0)
        // The caller with nothing under way takes the free worker.
        #expect(nextRun(&machine) == 10)
    }

    @Test("the spare's caller rule still holds: a cheap photo of a caller holding every worker does not take it")
    func cheapButSameCaller() {
        var machine = machine()
        let mallory = FairKey(caller: "token:mallory")
        submit(0, FairKey(caller: "token:mallory", project: "p0"), cost: 5_000, into: &machine)
        submit(1, FairKey(caller: "token:mallory", project: "p1"), cost: 5_000, into: &machine)
        #expect(nextRun(&machine) == 0)
        #expect(nextRun(&machine) == 1)
        submit(2, mallory, cost: 10, into: &machine)
        #expect(nextRun(&machine) == nil)
        submit(3, FairKey(caller: "token:alice"), cost: 300, into: &machine)
        #expect(nextRun(&machine) == 3)
    }

    @Test("with a running job of unknown cost the spare chooses by caller as before")
    func unknownCostFallsBack() {
        var machine = machine()
        submit(0, FairKey(caller: "a"), cost: nil, into: &machine)
        submit(1, FairKey(caller: "a"), cost: 5_000, into: &machine)
        #expect(nextRun(&machine) == 0)
        #expect(nextRun(&machine) == 1)
        submit(2, FairKey(caller: "b"), cost: 9_000, into: &machine)
        #expect(machine.freeThreadChoice == .spare(.projects(otherThan: FairKey(caller: "a")), cheaperThan: nil))
        #expect(nextRun(&machine) == 2)
    }
}
