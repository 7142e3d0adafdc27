import Foundation
import Synchronization
import Testing
@testable import DecodeSandbox

/// The wake-up of a photo awaiting a replacement worker: it sleeps until a change or its
/// deadline, and a change made between its question to the supervisor and its sleep is not lost.
@Suite("Idle worker signal")
struct IdleWorkerSignalTests {
    @Test("a change made after the generation was read, before the wait, ends the wait at once")
    func changeBeforeWaitIsKept() {
        let signal = IdleWorkerSignal()
        let seen = signal.generation
        signal.changed()
        let start = ContinuousClock.now
        signal.wait(after: seen, until: start + .seconds(30))
        #expect(ContinuousClock.now - start < .seconds(5), "the wait slept through a change made before it")
        #expect(signal.generation == seen + 1)
    }

    @Test("a waiter sleeps until another thread's change, not until its deadline")
    func changeWakesWaiter() async {
        let signal = IdleWorkerSignal()
        let seen = signal.generation
        let start = ContinuousClock.now
        let done = Mutex(false)
        let ended = Thread {
            signal.wait(after: seen, until: start + .seconds(60))
            done.withLock { $0 = true }
        }
        ended.start()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!done.withLock { $0 }, "the wait ended with no change")
        signal.changed()
        while !done.withLock({ $0 }), ContinuousClock.now - start < .seconds(20) { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(done.withLock { $0 }, "the change did not wake the waiter")
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test("with no change the wait ends at its deadline, and a deadline already past returns at once")
    func deadlineEndsWait() {
        let signal = IdleWorkerSignal()
        let start = ContinuousClock.now
        signal.wait(after: signal.generation, until: start + .milliseconds(80))
        let slept = ContinuousClock.now - start
        #expect(slept >= .milliseconds(80) && slept < .seconds(10))
        let again = ContinuousClock.now
        signal.wait(after: signal.generation, until: again - .seconds(1))
        #expect(ContinuousClock.now - again < .seconds(1))
    }
}
