import Synchronization

/// The one answer of a pool job: whichever of the result, the deadline or cancellation comes first
/// resumes the waiting task; later ones are dropped.
final class JobCompletion<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case installed(CheckedContinuation<Value, any Error>)
        case early(Result<Value, any Error>)
        case done
    }

    private let state = Mutex<State>(.waiting)

    /// Gives the continuation to resume; resumes it at once if the answer came first.
    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .installed(continuation)
                return nil
            case .early(let result):
                state = .done
                return result
            case .installed, .done:
                return nil
            }
        }
        if let early { continuation.resume(with: early) }
    }

    /// Resumes the waiting task with `result` unless something answered it already.
    func resume(with result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .early(result)
                return nil
            case .installed(let continuation):
                state = .done
                return continuation
            case .early, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
