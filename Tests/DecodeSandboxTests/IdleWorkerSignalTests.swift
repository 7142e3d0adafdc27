import Foundation
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
        signal.wait(after: seen, until: start + .seconds(3600))
        #expect(ContinuousClock.now - start < .seconds(600), "the wait slept through a change made before it")
        #expect(signal.generation == seen + 1)
    }

    @Test("a waiter on another thread wakes at a change, long before its deadline")
    func changeWakesWaiter() {
        let signal = IdleWorkerSignal()
        let seen = signal.generation
        let start = ContinuousClock.now
        let ended = DispatchSemaphore(value: 0)
        // A plain thread, as the decode threads are; whether it sleeps before or after the change,
        // the change must end its wait (the first test is the change made before the sleep).
        Thread {
            signal.wait(after: seen, until: start + .seconds(3600))
            ended.signal()
        }.start()
        signal.changed()
        #expect(ended.wait(timeout: .now() + 600) == .success, "the change did not wake the waiter")
    }

    @Test("with no change the wait ends at its deadline, and a deadline already past returns at once")
    func deadlineEndsWait() {
        let signal = IdleWorkerSignal()
        let start = ContinuousClock.now
        signal.wait(after: signal.generation, until: start + .milliseconds(80))
        let slept = ContinuousClock.now - start
        #expect(slept >= .milliseconds(80) && slept < .seconds(600))
        let again = ContinuousClock.now
        signal.wait(after: signal.generation, until: again - .seconds(1))
        #expect(ContinuousClock.now - again < .seconds(60))
    }
}
