import Synchronization

/// Runs work with a time limit, answering when the limit passes even if the work goes on.
///
/// Decoding on a worker thread cannot be interrupted, so a timed-out job keeps its worker until it
/// finishes; it still counts against the pool's bounded queue, so memory stays bounded.
enum Deadline {
    /// Thrown when the limit passed first.
    struct Exceeded: Error {}

    /// The result of `work`, or `Exceeded` once `limit` has passed.
    static func run<Result: Sendable>(
        within limit: Duration,
        _ work: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        let once = ResumeOnce<Result>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.set(continuation)
                let worker = Task {
                    do { once.resume(with: .success(try await work())) } catch { once.resume(with: .failure(error)) }
                }
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    if !Task.isCancelled { once.resume(with: .failure(Exceeded())) }
                }
                once.onFinish { timer.cancel(); _ = worker }
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
        }
    }
}

/// A continuation resumed by whichever of several racers finishes first.
private final class ResumeOnce<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var pending: Swift.Result<Result, any Error>?
        var finished = false
        var onFinish: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<Result, any Error>) {
        let pending = state.withLock { state -> Swift.Result<Result, any Error>? in
            if let pending = state.pending { return pending }
            state.continuation = continuation
            return nil
        }
        if let pending { continuation.resume(with: pending) }
    }

    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.onFinish = action
            return false
        }
        if runNow { action() }
    }

    func resume(with result: Swift.Result<Result, any Error>) {
        let (continuation, action) = state.withLock { state -> (CheckedContinuation<Result, any Error>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            guard let continuation = state.continuation else {
                state.pending = result
                return (nil, state.onFinish)
            }
            state.continuation = nil
            return (continuation, state.onFinish)
        }
        continuation?.resume(with: result)
        action?()
    }
}
