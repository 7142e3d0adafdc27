import Testing
@testable import Admission

/// The upload-memory gate's decisions without threads or a clock: each event in, the grants out
/// (issue 63, finding 2: one caller's large uploads filled the gate first come first served and
/// another caller's small upload waited behind them).
@Suite("Fair memory gate state machine")
struct FairMemoryGateStateMachineTests {
    typealias StateMachine = FairMemoryGate.StateMachine
    typealias Request = StateMachine.Request

    /// 64 units (MiB, say) with a quarter kept for callers within their share, as the daemon's default.
    func machine(capacity: Int = 64, reserve: Int = 16) -> StateMachine {
        StateMachine(capacity: capacity, reserve: reserve)
    }

    /// Makes `id`'s request and returns the ids granted by its arrival.
    func arrive(_ id: UInt64, _ caller: String, _ units: Int, _ machine: inout StateMachine) -> [UInt64] {
        machine.arrive(Request(id: id, caller: caller, units: units)).map(\.id)
    }

    @Test("a caller alone takes memory up to the reserve, and its next body waits even though it would fit")
    func aloneStopsAtTheReserve() {
        var gate = machine()
        #expect(arrive(1, "big", 20, &gate) == [1])
        #expect(arrive(2, "big", 20, &gate) == [2])
        // 24 free: a third 20 would leave 4, under the reserve of 16.
        #expect(arrive(3, "big", 20, &gate) == [])
        #expect(gate.totalHeld == 40)
        #expect(gate.isWaiting(3))
    }

    @Test("another caller's small upload is granted at once from the reserve while the first caller's bodies wait")
    func smallCallerGrantedFirst() {
        var gate = machine()
        _ = arrive(1, "big", 20, &gate)
        _ = arrive(2, "big", 20, &gate)
        _ = arrive(3, "big", 20, &gate)
        _ = arrive(4, "big", 20, &gate)
        #expect(arrive(5, "small", 1, &gate) == [5])
        #expect(gate.held["small"] == 1)
        // The big caller's bodies still wait: it is over its share (64 / 2).
        #expect(gate.isWaiting(3) && gate.isWaiting(4))
    }

    @Test("when memory frees, a waiting caller under its share is served before the caller over it, whoever came first")
    func waitingUnderShareServedFirst() {
        var gate = machine()
        _ = arrive(1, "big", 20, &gate)
        _ = arrive(2, "big", 20, &gate)
        // The other caller takes the reserve (it is within its share of 32); 8 are left.
        #expect(arrive(3, "other", 16, &gate) == [3])
        #expect(arrive(4, "big", 14, &gate) == [])
        #expect(arrive(5, "other", 10, &gate) == [])
        // 28 free after the release: "other" (16 held) before "big" (20 held), though "big" asked
        // first; "big" would then be over its share and take from the reserve, so it waits.
        #expect(gate.release(20, of: "big").map(\.id) == [5])
        #expect(gate.isWaiting(4))
        // Once it fits outside the reserve, it gets in.
        #expect(gate.release(16, of: "other").map(\.id) == [4])
    }

    @Test("48 large uploads of one caller in flight: each of another caller's uploads is granted at once")
    func floodDoesNotDelayAnother() {
        var gate = machine()
        var id: UInt64 = 0
        var bigGranted: [UInt64] = []
        for _ in 0..<48 {
            id += 1
            bigGranted += arrive(id, "flood", 15, &gate)
        }
        #expect(bigGranted.count == 3)
        for _ in 0..<10 {
            id += 1
            #expect(arrive(id, "good", 1, &gate) == [id])
            // The good caller's upload is done; a flood body ends too, and the next flood body goes in.
            #expect(gate.release(1, of: "good").isEmpty)
            let next = gate.release(15, of: "flood")
            #expect(next.count == 1 && next.allSatisfy { $0.caller == "flood" })
        }
    }

    @Test("trickled bodies of one caller do not hold the memory another caller needs")
    func tricklesLeaveRoom() {
        var gate = machine()
        // Three 20 MiB bodies arriving slowly, and a 4 MiB one: the third waits, and the fourth behind it.
        #expect(arrive(1, "slow", 20, &gate) == [1])
        #expect(arrive(2, "slow", 20, &gate) == [2])
        #expect(arrive(3, "slow", 20, &gate) == [])
        #expect(arrive(4, "slow", 4, &gate) == [])
        #expect(arrive(5, "good", 1, &gate) == [5])
    }

    @Test("a request of the caller holding the fewest that does not fit is not overtaken by callers holding more")
    func largeRequestNotStarved() {
        var gate = machine(capacity: 64, reserve: 0)
        _ = arrive(1, "a", 40, &gate)
        _ = arrive(2, "b", 20, &gate)
        // "c" holds nothing and needs 30: it waits, and "a"'s and "b"'s small ones wait behind it.
        #expect(arrive(3, "c", 30, &gate) == [])
        #expect(arrive(4, "b", 2, &gate) == [])
        #expect(arrive(5, "a", 2, &gate) == [])
        // Then the fewest held first: "c", "a" (nothing held now), "b".
        #expect(gate.release(40, of: "a").map(\.id) == [3, 5, 4])
    }

    @Test("with nothing held, a request larger than the capacity less the reserve is granted")
    func largeRequestWhenEmpty() {
        var gate = machine(capacity: 20, reserve: 5)
        #expect(arrive(1, "a", 20, &gate) == [1])
        #expect(arrive(2, "a", 1, &gate) == [])
        #expect(gate.release(20, of: "a").map(\.id) == [2])
    }

    @Test("a request that stops waiting lets in those it blocked")
    func abandonUnblocks() {
        var gate = machine(capacity: 10, reserve: 0)
        _ = arrive(1, "a", 6, &gate)
        #expect(arrive(2, "b", 8, &gate) == [])
        // "c"'s 2 would fit, but "b" (holding as little, and earlier) is served first.
        #expect(arrive(3, "c", 2, &gate) == [])
        let (removed, granted) = gate.abandon(2)
        #expect(removed)
        #expect(granted.map(\.id) == [3])
        #expect(gate.abandon(2).removed == false)
        #expect(gate.waitingCount == 0)
    }

    @Test("the share is the capacity over the callers holding or waiting")
    func shareCountsActiveCallers() {
        var gate = machine()
        #expect(gate.share == 64)
        _ = arrive(1, "a", 10, &gate)
        _ = arrive(2, "b", 10, &gate)
        #expect(gate.activeCallers == 2 && gate.share == 32)
        _ = gate.release(10, of: "a")
        #expect(gate.activeCallers == 1)
    }
}
