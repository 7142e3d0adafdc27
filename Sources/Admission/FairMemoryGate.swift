import Synchronization

/// Memory for request bodies shared fairly among callers: each caller (the same identity the
/// worker pool's fair queue uses) holds units of a fixed capacity, and when units run short the
/// caller holding the fewest is served first, while a part of the capacity stays free for a
/// caller within its share (`StateMachine` has the rules). So one caller with many large uploads
/// in flight, or with slow ones, neither fills the memory nor makes another caller's small upload
/// wait behind its own.
///
/// A caller waits at most a given time and not past its task's cancellation; a cancellation or
/// time-out that races the grant either gets the units or leaves none behind.
public final class FairMemoryGate: Sendable {
    /// Why units were not granted.
    public typealias Refusal = WeightedSemaphore.Refusal

    /// Units held by a caller; `release()` them exactly once.
    public struct Permit: Sendable {
        /// The gate they came from.
        fileprivate let gate: FairMemoryGate
        /// Who holds them.
        public let caller: String
        /// The units held.
        public let units: Int

        /// Gives the units back and wakes the waiters they now let in.
        public func release() { gate.release(units, of: caller) }
    }

    private struct State {
        var machine: StateMachine
        var continuations: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
        /// Requests whose id is taken but which have not reached the state machine yet.
        var arriving: Set<UInt64> = []
        /// Requests refused (timed out, cancelled) before they reached it.
        var refusedEarly: [UInt64: Refusal] = [:]
    }

    /// The units that may be held at once.
    public let capacity: Int
    /// The units kept for callers within their share (see `StateMachine`).
    public let reserve: Int
    private let state: Mutex<State>

    /// A gate of `capacity` units keeping `reserve` (a quarter of the capacity unless given) for
    /// callers within their share.
    public init(capacity: Int, reserve: Int? = nil) {
        precondition(capacity > 0, "a gate needs at least one unit")
        self.capacity = capacity
        let machine = StateMachine(capacity: capacity, reserve: reserve ?? capacity / 4)
        self.reserve = machine.reserve
        state = Mutex(State(machine: machine))
    }

    /// Units held now, over every caller.
    public var held: Int { state.withLock { $0.machine.totalHeld } }

    /// Units `caller` holds now.
    public func held(by caller: String) -> Int { state.withLock { $0.machine.held[caller] ?? 0 } }

    /// Requests waiting now.
    public var waiting: Int { state.withLock { $0.machine.waitingCount + $0.arriving.count } }

    /// Takes `units` for `caller`, waiting at most `wait` for them (nil: as long as it takes) and
    /// not past the task's cancellation.
    ///
    /// - Throws: `Refusal`.
    public func acquire(_ units: Int, for caller: String, waitingAtMost wait: Duration? = nil) async throws(Refusal) -> Permit {
        let units = max(0, units)
        guard units <= capacity else { throw .tooLarge }
        let id = state.withLock { state in
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
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
                    self.arrive(StateMachine.Request(id: id, caller: caller, units: units), continuation)
                }
            } onCancel: {
                self.abandon(id, with: .cancelled)
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .cancelled
        }
        return Permit(gate: self, caller: caller, units: units)
    }

    private func arrive(_ request: StateMachine.Request, _ continuation: CheckedContinuation<Void, any Error>) {
        enum Outcome { case refused(Refusal), decided([CheckedContinuation<Void, any Error>]) }
        let outcome: Outcome = state.withLock { state in
            state.arriving.remove(request.id)
            if let refusal = state.refusedEarly.removeValue(forKey: request.id) { return .refused(refusal) }
            state.continuations[request.id] = continuation
            return .decided(Self.take(state.machine.arrive(request), from: &state))
        }
        switch outcome {
        case .refused(let refusal): continuation.resume(throwing: refusal)
        case .decided(let granted): granted.forEach { $0.resume() }
        }
    }

    /// Fails request `id` with `refusal` if it still waits; one already granted is left alone.
    private func abandon(_ id: UInt64, with refusal: Refusal) {
        let (refused, granted): (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, any Error>]) = state.withLock { state in
            if state.arriving.contains(id) {
                state.refusedEarly[id] = refusal
                return (nil, [])
            }
            let (removed, granted) = state.machine.abandon(id)
            guard removed else { return (nil, []) }
            return (state.continuations.removeValue(forKey: id), Self.take(granted, from: &state))
        }
        refused?.resume(throwing: refusal)
        granted.forEach { $0.resume() }
    }

    private func release(_ units: Int, of caller: String) {
        let granted = state.withLock { state in Self.take(state.machine.release(units, of: caller), from: &state) }
        granted.forEach { $0.resume() }
    }

    /// The continuations of `granted`, taken out of `state`, to resume outside the lock.
    private static func take(_ granted: [StateMachine.Request], from state: inout State) -> [CheckedContinuation<Void, any Error>] {
        granted.compactMap { state.continuations.removeValue(forKey: $0.id) }
    }
}
