import Dispatch
import Synchronization

/// A weighted semaphore: callers hold units of a fixed capacity (bytes of memory, places for
/// calls) and wait, first come first served, for units held by others.
///
/// Nobody overtakes a waiter, so a large request is not starved by a stream of small ones. An
/// async caller waits at most a given time and not past its task's cancellation; a cancellation
/// or time-out that races the grant either gets the units or leaves none behind. A thread that
/// may block (a dedicated worker thread, never the cooperative pool) can wait without a limit.
public final class WeightedSemaphore: Sendable {
    /// Why units were not granted.
    public enum Refusal: Error, Sendable, Equatable {
        /// More than the whole capacity was asked for.
        case tooLarge
        /// The units did not become free within the wait.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
    }

    /// Held units; `release()` them exactly once.
    public struct Permit: Sendable {
        fileprivate let semaphore: WeightedSemaphore
        /// The units held.
        public let units: Int

        /// Gives the units back and wakes the waiters they now let in.
        public func release() { semaphore.release(units) }
    }

    private enum Resumer {
        case task(CheckedContinuation<Void, any Error>)
        case thread(DispatchSemaphore)
    }

    private struct Waiter {
        let id: UInt64
        let units: Int
        let resumer: Resumer
    }

    private struct State {
        var held = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Async waiters whose id is taken but whose continuation is not queued yet.
        var arriving: Set<UInt64> = []
        /// Async waiters refused (timed out, cancelled) before their continuation was queued.
        var refusedEarly: [UInt64: Refusal] = [:]
    }

    /// The units that may be held at once.
    public let capacity: Int
    private let state = Mutex(State())

    /// A semaphore of `capacity` units.
    public init(capacity: Int) {
        precondition(capacity > 0, "a semaphore needs at least one unit")
        self.capacity = capacity
    }

    /// Units held now.
    public var held: Int { state.withLock { $0.held } }

    /// Callers waiting now.
    public var waiting: Int { state.withLock { $0.waiters.count + $0.arriving.count } }

    /// Takes `units` at once if they are free and nobody waits, else nil.
    public func tryAcquire(_ units: Int) -> Permit? {
        let units = max(0, units)
        guard units <= capacity else { return nil }
        let granted = state.withLock { state in
            guard state.waiters.isEmpty, state.arriving.isEmpty, fits(units, besides: state.held) else { return false }
            state.held += units
            return true
        }
        return granted ? Permit(semaphore: self, units: units) : nil
    }

    /// Takes `units`, waiting at most `wait` for them (nil: as long as it takes) and not past the
    /// task's cancellation.
    ///
    /// - Throws: `Refusal`.
    public func acquire(_ units: Int, waitingAtMost wait: Duration? = nil) async throws(Refusal) -> Permit {
        let units = max(0, units)
        guard units <= capacity else { throw .tooLarge }
        let id: UInt64? = state.withLock { state in
            if state.waiters.isEmpty, state.arriving.isEmpty, fits(units, besides: state.held) {
                state.held += units
                return nil
            }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return Permit(semaphore: self, units: units) }
        if let wait, wait <= .zero {
            abandon(id, with: .timedOut)
        }
        let timer = wait.map { wait in
            Task {
                try await Task.sleep(for: wait)
                self.abandon(id, with: .timedOut)
            }
        }
        defer { timer?.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    self.enqueue(Waiter(id: id, units: units, resumer: .task(continuation)))
                }
            } onCancel: {
                self.abandon(id, with: .cancelled)
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .cancelled
        }
        return Permit(semaphore: self, units: units)
    }

    /// Takes `units`, blocking the calling thread until they are free. Call it only from a thread
    /// that may block (a dedicated worker thread), never from a task on the cooperative pool.
    ///
    /// - Throws: `Refusal.tooLarge` for more than the whole capacity.
    public func acquireBlocking(_ units: Int) throws(Refusal) -> Permit {
        let units = max(0, units)
        guard units <= capacity else { throw .tooLarge }
        let wakeup = DispatchSemaphore(value: 0)
        let granted = state.withLock { state in
            if state.waiters.isEmpty, state.arriving.isEmpty, fits(units, besides: state.held) {
                state.held += units
                return true
            }
            state.nextID += 1
            state.waiters.append(Waiter(id: state.nextID, units: units, resumer: .thread(wakeup)))
            return false
        }
        if !granted { wakeup.wait() }
        return Permit(semaphore: self, units: units)
    }

    private func fits(_ units: Int, besides held: Int) -> Bool {
        held + units <= capacity
    }

    private func enqueue(_ waiter: Waiter) {
        enum Outcome { case granted, refused(Refusal), queued }
        let outcome: Outcome = state.withLock { state in
            state.arriving.remove(waiter.id)
            if let refusal = state.refusedEarly.removeValue(forKey: waiter.id) { return .refused(refusal) }
            // The units may have been freed between the first look and now.
            if state.waiters.isEmpty, fits(waiter.units, besides: state.held) {
                state.held += waiter.units
                return .granted
            }
            state.waiters.append(waiter)
            return .queued
        }
        switch outcome {
        case .granted: Self.resume(waiter)
        case .refused(let refusal): Self.resume(waiter, throwing: refusal)
        case .queued: break
        }
    }

    /// Removes async waiter `id`, if it still waits, and fails it with `refusal`; a waiter already
    /// granted its units is left alone.
    private func abandon(_ id: UInt64, with refusal: Refusal) {
        let waiter: Waiter? = state.withLock { state in
            if state.arriving.remove(id) != nil {
                state.refusedEarly[id] = refusal
                return nil
            }
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        guard let waiter else { return }
        Self.resume(waiter, throwing: refusal)
        // The waiter that left may have blocked smaller ones behind it.
        release(0)
    }

    private func release(_ units: Int) {
        let granted: [Waiter] = state.withLock { state in
            state.held -= units
            var granted: [Waiter] = []
            while let first = state.waiters.first, fits(first.units, besides: state.held) {
                state.held += first.units
                granted.append(state.waiters.removeFirst())
            }
            return granted
        }
        for waiter in granted { Self.resume(waiter) }
    }

    private static func resume(_ waiter: Waiter, throwing refusal: Refusal? = nil) {
        switch waiter.resumer {
        case .task(let continuation):
            if let refusal { continuation.resume(throwing: refusal) } else { continuation.resume() }
        case .thread(let wakeup):
            // Blocking waiters are never refused: they leave only when granted.
            wakeup.signal()
        }
    }
}
