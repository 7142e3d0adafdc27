import Synchronization

/// A wake-up call for a single waiting loop: `signal` ends the current or the next `wait` early;
/// a wait's own time limit ends only that wait (see `WakeupState`).
final class Wakeup: Sendable {
    private let state = Mutex(WakeupState<CheckedContinuation<Void, Never>>())

    /// Ends the current wait, or the next one when nobody waits.
    func signal() {
        state.withLock { $0.signal() }?.resume()
    }

    /// Returns after `limit`, or earlier when signalled (or already signalled since the last wait).
    func wait(upTo limit: Duration) async {
        let number = state.withLock { $0.begin() }
        let timer = Task { [weak self] in
            // Cancelled when the wait ends early: then it must not end anything.
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self?.state.withLock { $0.expire(number) }?.resume()
        }
        await withCheckedContinuation { continuation in
            if !state.withLock({ $0.park(continuation, wait: number) }) { continuation.resume() }
        }
        timer.cancel()
    }
}
