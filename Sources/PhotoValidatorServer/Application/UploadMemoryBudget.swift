import Synchronization

/// The bytes of upload bodies the daemon holds in memory at once: a request reserves its declared
/// length before its body is read and gives it back when it is answered.
///
/// Requests over the budget wait, first come first served, without their bodies being read (the
/// kernel's flow control holds the client), for at most the admission wait; past it they are
/// refused. Waiting costs no CPU, so a burst larger than the daemon can take is smoothed into a
/// queue instead of being read, answered 503 and re-sent.
public final class UploadMemoryBudget: Sendable {
    /// Why a reservation was refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// More than the whole budget was asked for.
        case tooLarge
        /// The bytes did not become free within the wait.
        case timedOut
        /// The daemon is shutting down.
        case cancelled
    }

    /// A held reservation; `release()` it exactly once.
    public struct Reservation: Sendable {
        fileprivate let budget: UploadMemoryBudget
        /// The bytes held.
        public let bytes: Int

        /// Gives the bytes back and wakes the waiters they now fit.
        public func release() { budget.release(bytes) }
    }

    private struct Waiter {
        let id: UInt64
        let bytes: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var held = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters whose id is taken but whose continuation is not queued yet.
        var arriving: Set<UInt64> = []
        /// Waiters refused before their continuation was queued, with the error for it.
        var refusedEarly: [UInt64: any Error] = [:]
    }

    /// The most bytes held at once.
    public let capacity: Int
    private let state = Mutex(State())

    /// A budget of `capacity` bytes.
    public init(capacity: Int) {
        precondition(capacity > 0, "an upload budget needs room for at least one byte")
        self.capacity = capacity
    }

    /// Bytes currently held.
    public var held: Int { state.withLock { $0.held } }

    /// Requests waiting for bytes.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Reserves `bytes`, waiting at most `wait` for them to become free.
    ///
    /// - Throws: `Refusal`.
    public func reserve(_ bytes: Int, wait: Duration) async throws(Refusal) -> Reservation {
        guard bytes <= capacity else { throw .tooLarge }
        let id: UInt64? = state.withLock { state in
            // Nobody overtakes a waiter: a large upload is not starved by a stream of small ones.
            if state.waiters.isEmpty, state.held + bytes <= capacity {
                state.held += bytes
                return nil
            }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return Reservation(budget: self, bytes: bytes) }
        let timer = Task {
            try await Task.sleep(for: wait)
            self.abandon(id, with: Refusal.timedOut)
        }
        defer { timer.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    self.enqueue(Waiter(id: id, bytes: bytes, continuation: continuation))
                }
            } onCancel: {
                self.abandon(id, with: CancellationError())
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .cancelled
        }
        return Reservation(budget: self, bytes: bytes)
    }

    private func enqueue(_ waiter: Waiter) {
        enum Outcome { case granted, refused(any Error), queued }
        let outcome: Outcome = state.withLock { state in
            state.arriving.remove(waiter.id)
            if let error = state.refusedEarly.removeValue(forKey: waiter.id) { return .refused(error) }
            // The bytes may have been freed between the first look and now.
            if state.waiters.isEmpty, state.held + waiter.bytes <= capacity {
                state.held += waiter.bytes
                return .granted
            }
            state.waiters.append(waiter)
            return .queued
        }
        switch outcome {
        case .granted: waiter.continuation.resume()
        case .refused(let error): waiter.continuation.resume(throwing: error)
        case .queued: break
        }
    }

    /// Removes waiter `id`, if it still waits, and fails it with `error`; a waiter already
    /// granted its bytes is left alone.
    private func abandon(_ id: UInt64, with error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            if state.arriving.remove(id) != nil {
                state.refusedEarly[id] = error
                return nil
            }
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        guard let waiter else { return }
        waiter.continuation.resume(throwing: error)
        // The waiter that left may have blocked smaller ones behind it.
        release(0)
    }

    private func release(_ bytes: Int) {
        let granted: [Waiter] = state.withLock { state in
            state.held -= bytes
            var granted: [Waiter] = []
            while let first = state.waiters.first, state.held + first.bytes <= capacity {
                state.held += first.bytes
                granted.append(state.waiters.removeFirst())
            }
            return granted
        }
        for waiter in granted { waiter.continuation.resume() }
    }
}
