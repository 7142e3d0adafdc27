import Testing
@testable import ValidationThreads

@Suite("Fair queue and admission ledger (pure)")
struct FairAdmissionTests {
    @Test("callers are served in turn, each caller's items in order")
    func callersTakeTurns() {
        var queue = FairQueue<String>()
        for item in ["a1", "a2", "a3"] { queue.append(item, for: FairKey(caller: "a")) }
        queue.append("b1", for: FairKey(caller: "b"))
        queue.append("c1", for: FairKey(caller: "c"))
        queue.append("b2", for: FairKey(caller: "b"))
        var order: [String] = []
        while let item = queue.popFirst() { order.append(item) }
        #expect(order == ["a1", "b1", "c1", "a2", "b2", "a3"])
        #expect(queue.isEmpty && queue.count == 0)
    }

    @Test("a caller with 20 projects of one job each against a caller with one project: the second is served within 2 turns, then every other turn")
    func newProjectPerJobDoesNotSplitTheTurn() {
        var queue = FairQueue<String>()
        for index in 0..<20 { queue.append("flood-\(index)", for: FairKey(caller: "flooder", project: "p\(index)")) }
        for index in 0..<5 { queue.append("good-\(index)", for: FairKey(caller: "good", project: "home")) }
        var order: [String] = []
        while let item = queue.popFirst() { order.append(item) }
        #expect(order.count == 25)
        #expect(order.firstIndex(of: "good-0")! <= 1, "\(order)")
        // The good caller's five go out on turns 2, 4, 6, 8 and 10, in their order.
        #expect(order.enumerated().filter { $0.element.hasPrefix("good") }.map(\.offset) == [1, 3, 5, 7, 9], "\(order)")
        #expect(order.filter { $0.hasPrefix("good") } == (0..<5).map { "good-\($0)" })
        // The flooder's own jobs keep their order: each project gets its turn in the order it came.
        #expect(order.filter { $0.hasPrefix("flood") } == (0..<20).map { "flood-\($0)" })
    }

    @Test("within a caller, its projects take turns: a busy project delays a quiet one by at most one job")
    func projectsTakeTurnsWithinACaller() {
        var queue = FairQueue<String>()
        for item in ["a1", "a2", "a3"] { queue.append(item, for: FairKey(caller: "gateway", project: "busy")) }
        queue.append("q1", for: FairKey(caller: "gateway", project: "quiet"))
        queue.append("o1", for: FairKey(caller: "other", project: "busy"))
        var order: [String] = []
        while let item = queue.popFirst() { order.append(item) }
        // gateway/busy, other, gateway/quiet, then the rest of gateway/busy.
        #expect(order == ["a1", "o1", "q1", "a2", "a3"])
        // The same project name under two callers is two queues.
        #expect(queue.count(of: FairKey(caller: "other", project: "busy")) == 0)
    }

    @Test("popLast takes a caller's newest item over all its projects, or one project's newest, and the turns of what is left stand")
    func popLastAndRemoval() {
        var queue = FairQueue<String>()
        queue.append("x1", for: FairKey(caller: "x", project: "p"))
        queue.append("x2", for: FairKey(caller: "x", project: "q"))
        queue.append("y1", for: FairKey(caller: "y"))
        queue.append("x3", for: FairKey(caller: "x", project: "p"))
        queue.append("x4", for: FairKey(caller: "x", project: "r"))
        #expect(queue.count(of: "x") == 4 && queue.count(of: FairKey(caller: "x", project: "p")) == 2)
        #expect(queue.popLast(of: "x") == "x4")
        #expect(queue.popLast(of: FairKey(caller: "x", project: "q")) == "x2")
        #expect(queue.popLast(of: FairKey(caller: "x", project: "q")) == nil)
        #expect(queue.popLast(of: "x") == "x3")
        #expect(queue.count == 2)
        #expect(queue.removeAll { $0 == "x1" } == ["x1"])
        #expect(queue.count(of: "x") == 0 && queue.popFirst() == "y1" && queue.isEmpty)
        #expect(queue.popLast(of: "x") == nil && queue.popFirst() == nil)
    }

    @Test("removeAll keeps the order and turns of what it leaves")
    func removeAllKeepsTurns() {
        var queue = FairQueue<Int>()
        for value in 0..<6 { queue.append(value, for: FairKey(caller: value.isMultiple(of: 2) ? "even" : "odd", project: "p\(value % 3)")) }
        #expect(queue.removeAll { $0 == 0 || $0 == 3 } == [0, 3])
        #expect(queue.count == 4)
        var order: [Int] = []
        while let value = queue.popFirst() { order.append(value) }
        // even: p2 [2], p1 [4]; odd: p1 [1], p2 [5]; callers alternate, projects within each in turn.
        #expect(order == [2, 1, 4, 5])
        #expect(queue.removeAllItems().isEmpty)
    }

    @Test("a full pool: the busiest other caller gives way to one holding at least two places fewer, whatever the number of its projects")
    func busiestCallerGivesWay() {
        var ledger = AdmissionLedger()
        var queue = FairQueue<String>()
        // The flooder holds 5 places, one project each; one runs, four wait.
        for index in 0..<5 {
            let key = FairKey(caller: "flooder", project: "p\(index)")
            ledger.take(key)
            if index > 0 { queue.append("flood-\(index)", for: key) }
        }
        ledger.take(FairKey(caller: "good", project: "home"))
        #expect(ledger.total == 6 && ledger.places(of: "flooder") == 5 && ledger.places(of: FairKey(caller: "flooder", project: "p1")) == 1)
        #expect(ledger.giver(for: FairKey(caller: "good", project: "home"), queue: queue) == .caller("flooder"))
        #expect(ledger.giver(for: FairKey(caller: "new", project: "x"), queue: queue) == .caller("flooder"))
        // The flooder's own new job is refused: no one holds two more than it.
        #expect(ledger.giver(for: FairKey(caller: "flooder", project: "p9"), queue: queue) == nil)
        // Its newest waiting job is the one taken.
        #expect(queue.popLast(of: "flooder") == "flood-4")
    }

    @Test("a caller whose places are all running cannot give way; a caller one place ahead does not either")
    func onlyWaitingJobsAndClearMarginsGiveWay() {
        var ledger = AdmissionLedger()
        let queue = FairQueue<String>()
        for index in 0..<4 { ledger.take(FairKey(caller: "busy", project: "p\(index)")) }
        #expect(ledger.giver(for: FairKey(caller: "good"), queue: queue) == nil, "nothing of busy's waits")
        var waiting = FairQueue<String>()
        waiting.append("b", for: FairKey(caller: "busy", project: "p3"))
        ledger.take(FairKey(caller: "good"))
        ledger.take(FairKey(caller: "good"))
        ledger.take(FairKey(caller: "good"))
        #expect(ledger.giver(for: FairKey(caller: "good"), queue: waiting) == nil, "good holds 3, busy 4: one more is no margin")
        ledger.release(FairKey(caller: "good"))
        #expect(ledger.giver(for: FairKey(caller: "good"), queue: waiting) == .caller("busy"))
    }

    @Test("within one caller, its busiest project gives way to its quiet one when no other caller can")
    func busiestProjectGivesWayWithinACaller() {
        var ledger = AdmissionLedger()
        var queue = FairQueue<String>()
        for index in 0..<3 {
            let key = FairKey(caller: "gateway", project: "busy")
            ledger.take(key)
            if index > 0 { queue.append("busy-\(index)", for: key) }
        }
        #expect(ledger.giver(for: FairKey(caller: "gateway", project: "quiet"), queue: queue) == .project(FairKey(caller: "gateway", project: "busy")))
        #expect(ledger.giver(for: FairKey(caller: "gateway", project: "busy"), queue: queue) == nil)
        // Another caller is preferred: the busiest caller gives way first.
        ledger.take(FairKey(caller: "other", project: "o"))
        ledger.take(FairKey(caller: "other", project: "o"))
        #expect(ledger.giver(for: FairKey(caller: "newcomer"), queue: queue) == .caller("gateway"))
        for _ in 0..<2 { ledger.release(FairKey(caller: "other", project: "o")) }
        for _ in 0..<3 { ledger.release(FairKey(caller: "gateway", project: "busy")) }
        #expect(ledger.total == 0 && ledger.places(of: "gateway") == 0 && ledger.places(of: FairKey(caller: "gateway", project: "busy")) == 0)
    }

    @Test("givesWay(toCaller:) is false only when no other caller, nor a project of the caller's own, would give way")
    func givesWayToCaller() {
        var ledger = AdmissionLedger()
        var queue = FairQueue<String>()
        // The flooder holds two places, one project each, one of them waiting.
        ledger.take(FairKey(caller: "flooder", project: "p0"))
        ledger.take(FairKey(caller: "flooder", project: "p1"))
        queue.append("flood-1", for: FairKey(caller: "flooder", project: "p1"))
        #expect(!ledger.givesWay(toCaller: "flooder", queue: queue), "a new project of its own takes no one's place")
        #expect(ledger.givesWay(toCaller: "good", queue: queue))
        // With two places in one project, a quiet project of the same caller is let in.
        ledger.take(FairKey(caller: "flooder", project: "p1"))
        queue.append("flood-2", for: FairKey(caller: "flooder", project: "p1"))
        #expect(ledger.givesWay(toCaller: "flooder", queue: queue))
        #expect(ledger.giver(for: FairKey(caller: "flooder", project: "p9"), queue: queue) == .project(FairKey(caller: "flooder", project: "p1")))
    }

    @Test("with the places each caller holds, the caller with the fewest jobs under way is served first, ties in turn")
    func fewestUnderWayFirst() {
        var queue = FairQueue<String>()
        for index in 0..<4 { queue.append("flood-\(index)", for: FairKey(caller: "flooder", project: "p\(index)")) }
        queue.append("good-0", for: FairKey(caller: "good", project: "home"))
        queue.append("other-0", for: FairKey(caller: "other"))
        // The flooder has two running (6 places, 4 waiting); good and other one waiting each, none running.
        var places = ["flooder": 6, "good": 1, "other": 1]
        #expect(queue.popFirst(placesHeld: { places[$0]! }) == "good-0", "a caller with nothing under way goes before one with two running")
        places["good"] = 1
        #expect(queue.popFirst(placesHeld: { places[$0]! }) == "other-0", "then the next with nothing under way, not the flooder whose turn came first")
        places["other"] = 1
        // Only the flooder waits now: it is served whatever it holds.
        #expect(queue.popFirst(placesHeld: { places[$0]! }) == "flood-0")
        // Served in turn when every caller has as much under way.
        queue.append("good-1", for: FairKey(caller: "good", project: "home"))
        places = ["flooder": 4, "good": 2]
        #expect(queue.popFirst(placesHeld: { places[$0]! }) == "flood-1", "1 under way each: the flooder's turn came first")
        #expect(queue.popFirst(placesHeld: { places[$0]! }) == "good-1")
        #expect(queue.count == 2)
    }

    @Test("a caller with jobs waiting is held back while the capacity is taken or promised; each place that frees lets one request through")
    func promisesHoldBackTheRest() {
        var ledger = AdmissionLedger()
        var queue = FairQueue<String>()
        let capacity = 4
        // The flooder holds all four places: one running, three waiting.
        for index in 0..<4 {
            let key = FairKey(caller: "flooder", project: "p\(index)")
            ledger.take(key)
            if index > 0 { queue.append("flood-\(index)", for: key) }
        }
        #expect(ledger.holdsBack("flooder", capacity: capacity, queue: queue))
        #expect(!ledger.holdsBack("good", capacity: capacity, queue: queue), "a caller with nothing waiting is never held back")
        // The running job ends: one place frees, and one held request gets the promise of it.
        ledger.release(FairKey(caller: "flooder", project: "p0"))
        #expect(!ledger.holdsBack("flooder", capacity: capacity, queue: queue))
        ledger.promise(1, to: "flooder")
        #expect(ledger.promised == 1)
        #expect(ledger.holdsBack("flooder", capacity: capacity, queue: queue), "the freed place is promised: the next held request waits")
        // The promised request asks for its place: the promise becomes the place.
        let settled = ledger.settle(1)
        ledger.take(FairKey(caller: "flooder", project: "p4"))
        let settledAgain = ledger.settle(1)
        #expect(settled && !settledAgain, "a promise ends once")
        #expect(ledger.holdsBack("flooder", capacity: capacity, queue: queue) && ledger.promised == 0 && ledger.total == 4)
        // A promise given up (the request ended before asking) frees the place again.
        ledger.release(FairKey(caller: "flooder", project: "p1"))
        ledger.promise(2, to: "flooder")
        #expect(ledger.holdsBack("flooder", capacity: capacity, queue: queue))
        ledger.settle(2)
        #expect(!ledger.holdsBack("flooder", capacity: capacity, queue: queue))
        // Another caller holding two places more, with a job waiting, gives way: not held back.
        var other = AdmissionLedger()
        var waiting = FairQueue<String>()
        for index in 0..<3 { other.take(FairKey(caller: "busy")); if index > 0 { waiting.append("busy-\(index)", for: FairKey(caller: "busy")) } }
        other.take(FairKey(caller: "light"))
        waiting.append("light-1", for: FairKey(caller: "light"))
        #expect(!other.holdsBack("light", capacity: capacity, queue: waiting), "busy holds 3, light 1: busy gives way")
        // busy's own jobs share one project: a request of busy's, to another project, is let through for it to give way to.
        #expect(!other.holdsBack("busy", capacity: capacity, queue: waiting))
    }

    @Test("a caller holds at most the limit of requests back at once; the next is refused at once, and a place comes back as one stops waiting")
    func heldRequestsAreBoundedPerCaller() {
        var ledger = AdmissionLedger()
        for _ in 0..<3 {
            let held = ledger.hold("flooder", limit: 3)
            #expect(held)
        }
        let fourth = ledger.hold("flooder", limit: 3)
        #expect(!fourth && ledger.heldBack(of: "flooder") == 3)
        let other = ledger.hold("good", limit: 3)
        #expect(other, "another caller's limit is its own")
        ledger.stopHolding("flooder")
        let again = ledger.hold("flooder", limit: 3)
        #expect(again && ledger.heldBack(of: "flooder") == 3)
        for _ in 0..<3 { ledger.stopHolding("flooder") }
        ledger.stopHolding("good")
        #expect(ledger.heldBack(of: "flooder") == 0 && ledger.heldBack(of: "good") == 0)
    }
}
